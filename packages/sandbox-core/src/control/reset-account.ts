import { addBook } from '../books/add-book';
import type { AccountOperation } from '../routing/operation';
import type { AccountState } from '../state/account-state';
import type { ChangeFeed } from '../state/change-feed';

/**
 * `POST /_sandbox/reset`: empties the account's receipts (with their trails), books (a new,
 * empty `Main` is made, so record numbers start from 1 again), webhook endpoints and
 * deliveries; keeps tokens, the clock and the request log.
 *
 * @example
 * ```ts
 * resetAccount(context).status; // 204
 * ```
 */
export const resetAccount: AccountOperation = ({ state, account, nowMs }) => {
  if (state.feed.recording) reportRemovals(state.feed, account);
  account.receipts.clear();
  account.deletedReceipts.clear();
  account.index.clear();
  account.audit.clear();
  account.form4473Serials.clear();
  account.books.clear();
  account.webhooks.clear();
  account.deliveries.length = 0;
  account.deliveryPositions.clear();
  state.schedule.clear(account.record.id);
  addBook(state, account, 'Main', nowMs);
  state.version += 1;
  return { status: 204 };
};

/** Reports every record the reset takes out; a reset is the one change that costs O(records). */
function reportRemovals(feed: ChangeFeed, account: AccountState): void {
  for (const id of account.receipts.keys()) feed.remove('receipts', id);
  for (const id of account.deletedReceipts.keys()) feed.remove('deleted_receipts', id);
  for (const trail of account.audit.values()) for (const entry of trail) feed.remove('audit', entry.id);
  for (const book of account.books.values()) feed.remove('books', book.record.id);
  for (const id of account.webhooks.keys()) feed.remove('webhooks', id);
  for (const delivery of account.deliveries) feed.remove('deliveries', delivery.id);
}
