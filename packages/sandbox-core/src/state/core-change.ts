import type { DeletedReceipt, Receipt } from '@boundbook/types';
import type { AccountRecord } from '../accounts/account-record';
import type { AuditRecord } from '../audit/audit-record';
import type { BookRecord } from '../books/book-record';
import type { DeliveryRecord } from '../outbox/delivery-record';
import type { TokenRecord } from '../tokens/token-record';
import type { WebhookRecord } from '../webhooks/webhook-record';
import type { Sequences } from './core-state';

/** The record type of each collection of a snapshot, by the collection's name. */
export interface CoreCollections {
  accounts: AccountRecord;
  tokens: TokenRecord;
  books: BookRecord;
  receipts: Receipt;
  deleted_receipts: DeletedReceipt;
  audit: AuditRecord;
  webhooks: WebhookRecord;
  deliveries: DeliveryRecord;
}

/** The name of a collection of a snapshot, such as `'receipts'`. */
export type CoreCollection = keyof CoreCollections;

/** The names of every collection of a snapshot, in the order a snapshot lists them. */
export const CORE_COLLECTIONS: readonly CoreCollection[] = [
  'accounts',
  'tokens',
  'books',
  'receipts',
  'deleted_receipts',
  'audit',
  'webhooks',
  'deliveries',
];

/** A record put in place, new or replacing the record of the same id in its collection. */
export interface CoreUpsert<C extends CoreCollection = CoreCollection> {
  op: 'upsert';
  collection: C;
  /** The stored, immutable record itself. */
  record: CoreCollections[C];
}

/** The record of an id taken out of its collection. */
export interface CoreRemoval<C extends CoreCollection = CoreCollection> {
  op: 'remove';
  collection: C;
  id: CoreCollections[C]['id'];
}

/** One change to one record of a snapshot's collections. */
export type CoreChange = { [C in CoreCollection]: CoreUpsert<C> | CoreRemoval<C> }[CoreCollection];

/**
 * The record-level changes that lead a core's state from version `base` to version `version`,
 * in the order they were made, with the id sequences as of `version`. Applied in order to a
 * snapshot of version `base`, they give the snapshot of version `version`.
 */
export interface CoreChangeSet {
  /** The version the changes start from. */
  base: number;
  /** The version the changes lead to. */
  version: number;
  /** Last id given out per kind of record, as of `version`. */
  sequences: Sequences;
  changes: CoreChange[];
}
