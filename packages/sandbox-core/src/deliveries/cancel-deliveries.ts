import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import { putDelivery } from './put-delivery';

/**
 * Cancels every pending delivery of one endpoint of the account (the endpoint was deleted or
 * disabled): `cancelled`, no next attempt. Their scheduled attempts go stale and are never made.
 *
 * @example
 * ```ts
 * cancelDeliveries(state, account, webhook.id);
 * ```
 */
export function cancelDeliveries(state: CoreState, account: AccountState, webhookId: number): void {
  for (const delivery of account.deliveries) {
    if (delivery.webhook_id !== webhookId || delivery.state !== 'pending') continue;
    putDelivery(state, account, Object.freeze({ ...delivery, state: 'cancelled', next_attempt_at: null }));
  }
}
