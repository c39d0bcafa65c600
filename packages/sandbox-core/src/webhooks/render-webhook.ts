import type { WebhookEndpoint } from '@boundbook/types';
import type { WebhookRecord } from './webhook-record';

/**
 * The contract's `WebhookEndpoint` of a stored endpoint: never the secret.
 *
 * @example
 * ```ts
 * Array.from(account.webhooks.values(), renderWebhook);
 * ```
 */
export function renderWebhook(record: WebhookRecord): WebhookEndpoint {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
