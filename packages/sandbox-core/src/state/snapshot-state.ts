import type { CoreSnapshot } from './core-snapshot';
import type { CoreState } from './core-state';

/**
 * The persistent state as plain data: arrays of the stored (immutable) record objects and a
 * copy of the sequences. No record is copied, so a snapshot costs one pass of references.
 *
 * @example
 * ```ts
 * const snapshot = snapshotState(state);
 * JSON.stringify(snapshot);
 * ```
 */
export function snapshotState(state: CoreState): CoreSnapshot {
  const snapshot: CoreSnapshot = {
    format: 1,
    version: state.version,
    sequences: { ...state.sequences },
    accounts: [],
    tokens: [],
    books: [],
    receipts: [],
    deleted_receipts: [],
    audit: [],
    webhooks: [],
    deliveries: [],
  };
  for (const account of state.accounts.values()) {
    snapshot.accounts.push(account.record);
    for (const token of account.tokens.values()) snapshot.tokens.push(token);
    for (const book of account.books.values()) snapshot.books.push(book.record);
    for (const receipt of account.receipts.values()) snapshot.receipts.push(receipt);
    for (const receipt of account.deletedReceipts.values()) snapshot.deleted_receipts.push(receipt);
    for (const trail of account.audit.values()) for (const entry of trail) snapshot.audit.push(entry);
    for (const webhook of account.webhooks.values()) snapshot.webhooks.push(webhook);
    for (const delivery of account.deliveries) snapshot.deliveries.push(delivery);
  }
  return snapshot;
}
