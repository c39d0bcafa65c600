import type { SandboxDelivery } from '@boundbook/types';
import type { DeliveryRecord } from '../outbox/delivery-record';

/**
 * The control API's `Delivery` of a stored delivery: never its owner, body or internal counts.
 *
 * @example
 * ```ts
 * account.deliveries.map(renderDelivery);
 * ```
 */
export function renderDelivery(record: DeliveryRecord): SandboxDelivery {
  return {
    id: record.id,
    webhook_id: record.webhook_id,
    event: record.event,
    state: record.state,
    next_attempt_at: record.next_attempt_at,
    created_at: record.created_at,
    attempts: record.attempts,
  };
}
