import type { Receipt } from '@fflkit/sdk';
import { BOUND_BOOK_COLUMNS } from './bound-book-columns';

/** Which receipts {@link toBookRows} exports. */
export interface BookRowFilter {
  /** Only this book; every book when absent. */
  readonly book?: string;
}

/**
 * The rows of the bound book, without the header, in bound-book order: by book, then by record
 * (line) number within the book, which the service assigns in the order of entry and never reuses.
 *
 * @example
 * ```ts
 * const rows = toBookRows(mirror.values(), { book: 'Main' });
 * // [['Example Arms Co.', '', 'EX-9', 'EXA0012345', 'Pistol', '9mm Luger', '2025-03-14', ...], ...]
 * ```
 */
export function toBookRows(receipts: Iterable<Receipt>, filter: BookRowFilter = {}): string[][] {
  return [...receipts]
    .filter((receipt) => filter.book === undefined || receipt.book === filter.book)
    .sort(inBookOrder)
    .map((receipt) => BOUND_BOOK_COLUMNS.map((column) => column.value(receipt)));
}

function inBookOrder(a: Receipt, b: Receipt): number {
  // Code-unit order rather than localeCompare: the same file on every machine, whatever its locale.
  if (a.book !== b.book) return a.book < b.book ? -1 : 1;
  return a.record - b.record;
}
