import type { DeliveryRecord } from '../outbox/delivery-record';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';

/**
 * Puts a delivery record in place, new (appended, newest last) or replacing the record of its
 * id, reports it to the change feed, and schedules its next attempt when it is pending with a
 * new `next_attempt_at`. Every change to a delivery goes through here.
 *
 * @example
 * ```ts
 * putDelivery(state, account, Object.freeze({ ...delivery, state: 'cancelled', next_attempt_at: null }));
 * ```
 */
export function putDelivery(state: CoreState, account: AccountState, record: DeliveryRecord): void {
  const position = account.deliveryPositions.get(record.id);
  let previous: DeliveryRecord | undefined;
  if (position === undefined) {
    account.deliveryPositions.set(record.id, account.deliveries.length);
    account.deliveries.push(record);
  } else {
    previous = account.deliveries[position];
    account.deliveries[position] = record;
  }
  state.feed.upsert('deliveries', record);
  const rescheduled =
    previous === undefined || previous.state !== 'pending' || previous.next_attempt_at !== record.next_attempt_at;
  if (rescheduled) state.schedule.add(record);
}
