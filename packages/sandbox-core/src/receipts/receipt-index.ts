import type { Receipt } from '@boundbook/types';
import { removeById, upsertById } from '../state/sorted-by-id';

/**
 * The live (not soft-deleted) receipts of an account or a book, by ascending id, split by
 * status. It answers counts and unfiltered pages without a scan, lets filtered scans run over
 * the records themselves, and each change costs a binary search.
 *
 * @example
 * ```ts
 * const index = new ReceiptIndex();
 * index.put(receipt);
 * index.onHand.length; // 1
 * ```
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

  /** Forgets every receipt, as a reset does. */
  clear(): void {
    this.all.length = 0;
    this.onHand.length = 0;
    this.disposed.length = 0;
  }

  /** The receipts of one status, or all of them. */
  list(status?: Receipt['status']): readonly Receipt[] {
    return status === undefined ? this.all : this.#list(status);
  }

  #list(status: Receipt['status']): Receipt[] {
    return status === 'on_hand' ? this.onHand : this.disposed;
  }
}
