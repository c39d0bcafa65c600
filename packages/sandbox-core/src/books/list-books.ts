import type { AccountOperation } from '../routing/operation';
import { renderBook } from './render-book';

/**
 * `GET /books`: every book of the account with its counts, by id ascending, unpaginated.
 *
 * @example
 * ```ts
 * listBooks(context).body; // { data: [{ id: 1, name: 'Main', record_count: 0, ... }] }
 * ```
 */
export const listBooks: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: Array.from(account.books.values(), renderBook) },
});
