import type { Book } from '@boundbook/types';
import type { BookState } from './book-state';

/**
 * The contract's `Book`, with counts of the live receipts.
 *
 * @example
 * ```ts
 * return { status: 200, body: { data: [...account.books.values()].map(renderBook) } };
 * ```
 */
export function renderBook(book: BookState): Book {
  const recordCount = book.index.all.length;
  const onHandCount = book.index.onHand.length;
  return {
    id: book.record.id,
    name: book.record.name,
    record_count: recordCount,
    on_hand_count: onHandCount,
    disposed_count: recordCount - onHandCount,
    created_at: book.record.created_at,
  };
}
