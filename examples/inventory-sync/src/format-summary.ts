import type { SyncReport } from './run-sync';

/**
 * The line the CLI prints when a sync is done.
 *
 * @example
 * ```ts
 * formatSummary({ pulled: 3, created: 1, updated: 2, deleted: 1, receipts: 5, rows: 5 }, 'book.csv', undefined);
 * // 'inventory-sync: pulled 3 changes (1 new, 2 updated), removed 1 deleted receipt; wrote 5 rows to book.csv'
 * ```
 */
export function formatSummary(report: SyncReport, out: string, book: string | undefined): string {
  const pulled =
    report.pulled === 0
      ? 'no changes since the last sync'
      : `pulled ${plural(report.pulled, 'change')} (${report.created} new, ${report.updated} updated)`;
  const deleted = report.deleted === 0 ? '' : `, removed ${plural(report.deleted, 'deleted receipt')}`;
  const rows = `${plural(report.rows, 'row')}${book === undefined ? '' : ` of book ${JSON.stringify(book)}`}`;
  return `inventory-sync: ${pulled}${deleted}; wrote ${rows} to ${out === '-' ? 'stdout' : out}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
