import type { Receipt } from '@boundbook/types';
import type { AccountState } from '../state/account-state';

/**
 * The account's live receipts by ascending id, narrowed by book name (a name no book has gives
 * none) and status, straight from the indexes.
 *
 * @example
 * ```ts
 * selectReceipts(account, 'Main', 'on_hand');
 * ```
 */
export function selectReceipts(
  account: AccountState,
  book: string | undefined,
  status?: Receipt['status'],
): readonly Receipt[] {
  if (book === undefined) return account.index.list(status);
  return account.books.get(book)?.index.list(status) ?? [];
}
