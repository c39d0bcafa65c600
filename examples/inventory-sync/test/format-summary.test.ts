import { describe, expect, it } from 'vitest';
import { formatSummary } from '../src/format-summary';

describe('formatSummary(report, out, book)', () => {
  it('counts the changes, the deletions and the rows', () => {
    expect(
      formatSummary({ pulled: 3, created: 1, updated: 2, deleted: 2, receipts: 5, rows: 5 }, 'book.csv', undefined),
    ).toBe('inventory-sync: pulled 3 changes (1 new, 2 updated), removed 2 deleted receipts; wrote 5 rows to book.csv');
  });

  it('says when nothing changed, and names the book and stdout', () => {
    expect(formatSummary({ pulled: 0, created: 0, updated: 0, deleted: 0, receipts: 5, rows: 1 }, '-', 'Main')).toBe(
      'inventory-sync: no changes since the last sync; wrote 1 row of book "Main" to stdout',
    );
  });
});
