import { receiptResource } from '@fflkit/test-fixtures';
import type { Page, Receipt, ReceiptListQuery } from '@fflkit/types';
import { page } from './page';

/**
 * Receipts in memory, listed as `GET /receipts` lists them: by id, `since` keeping `updated_at`
 * strictly after it (timestamps are whole seconds), paginated.
 */
export class ReceiptStore {
  readonly receipts = new Map<number, Receipt>();
  /** Every query received, in order. */
  readonly queries: ReceiptListQuery[] = [];
  /** Called before each page is answered: lets a test change the store between pages. */
  beforePage: (query: ReceiptListQuery) => void = () => undefined;

  put(id: number, updatedAt: string): Receipt {
    const record = receiptResource({ id, record: id, serial_number: `SN${id}`, updated_at: updatedAt });
    this.receipts.set(id, record);
    return record;
  }

  delete(id: number): void {
    this.receipts.delete(id);
  }

  list = async (query: ReceiptListQuery): Promise<Page<Receipt>> => {
    this.queries.push(query);
    this.beforePage(query);
    const since = query.since === undefined ? -Infinity : Math.floor(Date.parse(query.since) / 1000) * 1000;
    const matches = [...this.receipts.values()]
      .filter((r) => Date.parse(r.updated_at) > since)
      .sort((a, b) => a.id - b.id);
    return page(matches, query.page ?? 1, query.per_page ?? 25);
  };
}

/** The moment `seconds` after 2025-03-14T15:00:00Z, as the API writes it. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2025, 2, 14, 15, 0, seconds)).toISOString().replace('.000Z', 'Z');
}
