import { formatTimestamp } from '../clock/format-timestamp';
import type { AccountState } from '../state/account-state';
import { type CoreState, nextId } from '../state/core-state';
import { type BookState, createBookState } from './book-state';

/**
 * Adds an empty book to an account; the caller has checked that the name is free.
 *
 * @example
 * ```ts
 * addBook(state, account, 'Main', nowMs);
 * ```
 */
export function addBook(state: CoreState, account: AccountState, name: string, nowMs: number): BookState {
  const book = createBookState(
    Object.freeze({
      id: nextId(state, 'book'),
      account_id: account.record.id,
      name,
      created_at: formatTimestamp(nowMs),
    }),
  );
  account.books.set(name, book);
  state.feed.upsert('books', book.record);
  return book;
}
