import type { Receipt } from '@boundbook/types';
import type { AccountState } from '../state/account-state';
import { freezeReceipt } from './freeze-receipt';

/**
 * Puts a new version of a live receipt in place of the old one, in the account's map and in
 * the indexes of the account and of its book (moving it between statuses if that changed).
 *
 * @example
 * ```ts
 * const updated = replaceReceipt(account, receipt, { ...receipt, model: 'EX-9', updated_at });
 * ```
 */
export function replaceReceipt(account: AccountState, previous: Receipt, next: Receipt): Receipt {
  const frozen = freezeReceipt(next);
  account.receipts.set(frozen.id, frozen);
  account.index.put(frozen, previous);
  account.books.get(frozen.book)?.index.put(frozen, previous);
  return frozen;
}
