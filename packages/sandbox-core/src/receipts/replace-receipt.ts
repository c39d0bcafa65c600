import type { Receipt } from '@boundbook/types';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import { freezeReceipt } from './freeze-receipt';

/**
 * Puts a new version of a live receipt in place of the old one, in the account's map and in
 * the indexes of the account and of its book (moving it between statuses if that changed), and
 * reports it to the state's change feed.
 *
 * @example
 * ```ts
 * const updated = replaceReceipt(state, account, receipt, { ...receipt, model: 'EX-9', updated_at });
 * ```
 */
export function replaceReceipt(
  state: CoreState,
  account: AccountState,
  previous: Receipt,
  next: Receipt,
): Receipt {
  const frozen = freezeReceipt(next);
  account.receipts.set(frozen.id, frozen);
  account.index.put(frozen, previous);
  account.books.get(frozen.book)?.index.put(frozen, previous);
  state.feed.upsert('receipts', frozen);
  return frozen;
}
