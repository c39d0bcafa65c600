import { ReceiptIndex } from '../receipts/receipt-index';
import type { BookRecord } from './book-record';

/** A book with its live receipts and the last record number it gave out. */
export interface BookState {
  readonly record: BookRecord;
  readonly index: ReceiptIndex;
  /** The highest record number given so far, deleted receipts included; never reused. */
  lastRecord: number;
}

/**
 * A new, empty book's state.
 *
 * @example
 * ```ts
 * account.books.set(record.name, createBookState(record));
 * ```
 */
export function createBookState(record: BookRecord): BookState {
  return { record, index: new ReceiptIndex(), lastRecord: 0 };
}
