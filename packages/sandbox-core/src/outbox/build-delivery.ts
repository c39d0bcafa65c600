import type { WebhookEventName } from '@boundbook/types';
import { randomUuid } from '../random/random-uuid';
import type { DeliveryRecord } from './delivery-record';

/** What a new delivery is made of. */
export interface NewDelivery {
  readonly accountId: number;
  readonly webhookId: number;
  readonly event: WebhookEventName;
  /** The body text `{"event","timestamp","data"}`, shared by the deliveries of one event. */
  readonly body: string;
  /** When the event happened: the delivery's `created_at` and its first attempt's due time. */
  readonly timestamp: string;
}

/**
 * A new pending delivery, its first attempt due at once, with a random version 4 UUID.
 *
 * @example
 * ```ts
 * const delivery = buildDelivery(env.randomBytes, { accountId, webhookId, event: 'ping', body, timestamp });
 * ```
 */
export function buildDelivery(randomBytes: (length: number) => Uint8Array, input: NewDelivery): DeliveryRecord {
  return Object.freeze({
    id: randomUuid(randomBytes),
    webhook_id: input.webhookId,
    event: input.event,
    state: 'pending',
    next_attempt_at: input.timestamp,
    created_at: input.timestamp,
    attempts: Object.freeze([]) as unknown as DeliveryRecord['attempts'],
    account_id: input.accountId,
    body: input.body,
    scheduled_attempts: 0,
  });
}
