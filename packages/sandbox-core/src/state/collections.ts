import type { DeletedReceipt, Receipt } from '@fflkit/types';
import { ReceiptIndex } from './receipt-index';
import type { CoreCollection, CoreCollections, CoreRecord, DeliveryRecord } from './records';
import type { AccountState, Activity, CoreStore } from './store';

// How the store keeps each collection: one entry per collection, with where its records live,
// the indexes that follow them, and how they are listed. The store's put, remove, load and undo
// all go through these entries, so a new collection is one entry here (and its type in
// records.ts).

/** How the store keeps the records of one collection. */
export interface CollectionEntry<R extends CoreRecord> {
  /** The stored record of the same identity as `record` (its id; a book's name), if any. */
  current(store: CoreStore, account: AccountState, record: R): R | undefined;
  /** Puts `next` in place of `previous` (either may be absent) in the maps and indexes. */
  apply(store: CoreStore, account: AccountState, previous: R | undefined, next: R | undefined): void;
  /** The account's records of the collection, in the order a snapshot lists them. */
  list(account: AccountState): Iterable<R>;
  /** What the followers of the account are told once a change of the record is committed, if anything. */
  activity?(account: AccountState, record: R): Activity;
}

/** The entry of each collection. */
const ENTRIES: { readonly [C in CoreCollection]: CollectionEntry<CoreCollections[C]> } = {
  accounts: {
    current: (store, _account, record) => store.accounts.get(record.id)?.record,
    apply(store, account, _previous, next) {
      if (next === undefined) {
        store.accounts.delete(account.record.id);
        return;
      }
      account.record = next;
      store.accounts.set(next.id, account);
    },
    list: (account) => [account.record],
  },
  tokens: {
    current: (_store, account, record) => account.tokens.get(record.id),
    apply(store, account, previous, next) {
      if (previous !== undefined && next === undefined) account.tokens.delete(previous.id);
      if (previous !== undefined && previous.hash !== next?.hash) store.tokensByHash.delete(previous.hash);
      if (next !== undefined) {
        // Set in place: the map keeps the order of ids, which a snapshot lists.
        account.tokens.set(next.id, next);
        store.tokensByHash.set(next.hash, next);
      }
    },
    list: (account) => account.tokens.values(),
  },
  books: {
    current: (_store, account, record) => account.books.get(record.name)?.record,
    apply(_store, account, previous, next) {
      if (next === undefined) account.books.delete(previous!.name);
      else if (previous !== undefined) account.books.get(next.name)!.record = next;
      else account.books.set(next.name, { record: next, index: new ReceiptIndex() });
    },
    list: (account) => Array.from(account.books.values(), (book) => book.record),
  },
  receipts: {
    current: (_store, account, record) => account.receipts.get(record.id),
    apply(_store, account, previous, next) {
      if (previous !== undefined) forgetSerial(account, previous);
      if (next === undefined) {
        account.receipts.delete(previous!.id);
        account.index.remove(previous!);
        account.books.get(previous!.book)?.index.remove(previous!);
        return;
      }
      account.receipts.set(next.id, next);
      account.index.put(next, previous);
      account.books.get(next.book)?.index.put(next, previous);
      keepSerial(account, next);
    },
    list: (account) => account.receipts.values(),
  },
  deleted_receipts: {
    current: (_store, account, record) => account.deletedReceipts.get(record.id),
    apply(_store, account, previous, next) {
      if (previous !== undefined) {
        account.deletedReceipts.delete(previous.id);
        forgetSerial(account, previous);
      }
      if (next !== undefined) {
        account.deletedReceipts.set(next.id, next);
        keepSerial(account, next);
      }
    },
    list: (account) => account.deletedReceipts.values(),
  },
  audit: {
    current: (_store, account, record) => account.audit.find(record.receipt_id, record.id),
    apply: (_store, account, previous, next) => account.audit.apply(previous, next, account),
    // As held: an entry `created` serialises as its record (see `plainRecord`).
    list: (account) => account.audit.held(),
  },
  webhooks: {
    current: (_store, account, record) => account.webhooks.get(record.id),
    apply(_store, account, previous, next) {
      if (next === undefined) account.webhooks.delete(previous!.id);
      else account.webhooks.set(next.id, next);
    },
    list: (account) => account.webhooks.values(),
  },
  deliveries: {
    current: (_store, account, record) => findDelivery(account, record.id),
    apply(store, account, previous, next) {
      if (next === undefined) {
        removeDelivery(account, previous!.id);
        return;
      }
      const position = account.deliveryPositions.get(next.id);
      if (position === undefined) {
        account.deliveryPositions.set(next.id, account.deliveries.length);
        account.deliveries.push(next);
      } else {
        account.deliveries[position] = next;
      }
      const rescheduled =
        previous === undefined || previous.state !== 'pending' || previous.next_attempt_at !== next.next_attempt_at;
      if (rescheduled) store.schedule.add(next);
      account.lastEventMs = Math.max(account.lastEventMs, Date.parse(next.created_at));
    },
    list: (account) => account.deliveries,
    activity: (account, record) => ({ kind: 'delivery', account, record }),
  },
};

/** The entry of a collection. */
export function collectionEntry<C extends CoreCollection>(collection: C): CollectionEntry<CoreCollections[C]> {
  return ENTRIES[collection];
}

/**
 * The entry of a collection named at run time (an undo, a removal), for records of any
 * collection: the one place where a record's type is taken from its collection's name.
 */
export function anyCollectionEntry(collection: CoreCollection): CollectionEntry<CoreRecord> {
  return ENTRIES[collection] as CollectionEntry<CoreRecord>;
}

/** A delivery of the account by its id. */
export function findDelivery(account: AccountState, id: string): DeliveryRecord | undefined {
  const position = account.deliveryPositions.get(id);
  return position === undefined ? undefined : account.deliveries[position];
}

function keepSerial(account: AccountState, receipt: Receipt | DeletedReceipt): void {
  const serial = receipt.disposition?.form_4473_serial;
  if (serial !== undefined && serial !== null) account.form4473Serials.add(serial);
}

function forgetSerial(account: AccountState, receipt: Receipt | DeletedReceipt): void {
  const serial = receipt.disposition?.form_4473_serial;
  if (serial !== undefined && serial !== null) account.form4473Serials.delete(serial);
}

function removeDelivery(account: AccountState, id: string): void {
  const position = account.deliveryPositions.get(id);
  if (position === undefined) return;
  account.deliveryPositions.delete(id);
  if (position === account.deliveries.length - 1) {
    account.deliveries.pop();
    return;
  }
  account.deliveries.splice(position, 1);
  for (let at = position; at < account.deliveries.length; at += 1) {
    account.deliveryPositions.set(account.deliveries[at]!.id, at);
  }
}
