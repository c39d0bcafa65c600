import { addBook } from '../books/add-book';
import type { AccountOperation } from '../routing/operation';

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
  account.receipts.clear();
  account.deletedReceipts.clear();
  account.index.clear();
  account.audit.clear();
  account.form4473Serials.clear();
  account.books.clear();
  account.webhooks.clear();
  account.deliveries.length = 0;
  addBook(state, account, 'Main', nowMs);
  state.version += 1;
  return { status: 204 };
};
