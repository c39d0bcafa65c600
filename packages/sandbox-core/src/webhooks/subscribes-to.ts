import { WILDCARD_SUBSCRIPTION, type WebhookEventName } from '@boundbook/types';
import type { WebhookRecord } from './webhook-record';

/**
 * Whether an enabled endpoint takes an event: it names the event or subscribes to `*`.
 *
 * @example
 * ```ts
 * subscribesTo(webhook, 'receipt.created');
 * ```
 */
export function subscribesTo(webhook: WebhookRecord, event: WebhookEventName): boolean {
  if (!webhook.enabled) return false;
  return webhook.events.includes(event) || webhook.events.includes(WILDCARD_SUBSCRIPTION);
}
