import type { Receipt } from '@fflkit/types';

/**
 * The live (not soft-deleted) receipts of an account or a book, by ascending id, split by
 * status. It answers counts and unfiltered pages without a scan, lets filtered scans run over
 * the records themselves, and each change costs a binary search (new receipts have the largest
 * id yet, so the common case is a push).
 */
export class ReceiptIndex {
  readonly all: Receipt[] = [];
  readonly onHand: Receipt[] = [];
  readonly disposed: Receipt[] = [];

  /** Adds a receipt, or puts a new version in place of the old one (the status may change). */
  put(receipt: Receipt, previous?: Receipt): void {
    if (previous !== undefined && previous.status !== receipt.status) {
      removeById(this.#list(previous.status), previous.id);
    }
    upsertById(this.all, receipt);
    upsertById(this.#list(receipt.status), receipt);
  }

  /** Takes a receipt out, as a soft delete does. */
  remove(receipt: Receipt): void {
    removeById(this.all, receipt.id);
    removeById(this.#list(receipt.status), receipt.id);
  }

  /** The receipts of one status, or all of them. */
  list(status?: Receipt['status']): readonly Receipt[] {
    return status === undefined ? this.all : this.#list(status);
  }

  #list(status: Receipt['status']): Receipt[] {
    return status === 'on_hand' ? this.onHand : this.disposed;
  }
}

function upsertById(records: Receipt[], record: Receipt): void {
  const last = records[records.length - 1];
  if (last === undefined || last.id < record.id) {
    records.push(record);
    return;
  }
  const at = lowerBound(records, record.id);
  if (records[at]?.id === record.id) records[at] = record;
  else records.splice(at, 0, record);
}

function removeById(records: Receipt[], id: number): void {
  if (records[records.length - 1]?.id === id) {
    records.pop();
    return;
  }
  const at = lowerBound(records, id);
  if (records[at]?.id === id) records.splice(at, 1);
}

function lowerBound(records: readonly Receipt[], id: number): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((records[middle]?.id ?? 0) < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
