import type { DeliveryRecord } from '../outbox/delivery-record';
import type { AccountState } from '../state/account-state';

/**
 * A delivery of the account by id; `undefined` when it has none of that id (another account's
 * deliveries are not found).
 *
 * @example
 * ```ts
 * const delivery = findDelivery(account, '0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f');
 * ```
 */
export function findDelivery(account: AccountState, id: string): DeliveryRecord | undefined {
  const position = account.deliveryPositions.get(id);
  return position === undefined ? undefined : account.deliveries[position];
}
