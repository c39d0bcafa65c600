import { stringify } from 'csv-stringify/sync';
import { BOUND_BOOK_HEADER } from './bound-book-columns';

/**
 * The bound book as CSV (RFC 4180 quoting): the header row, then the rows as given.
 *
 * @example
 * ```ts
 * const csv = formatBookCsv(toBookRows(receipts));
 * // 'Manufacturer,Importer,Model,Serial Number,...\nExample Arms Co.,,EX-9,...\n'
 * ```
 */
export function formatBookCsv(rows: readonly (readonly string[])[]): string {
  // Every row is written, header included, even for an empty book: an empty book is a valid export.
  return stringify([[...BOUND_BOOK_HEADER], ...rows.map((row) => [...row])]);
}
