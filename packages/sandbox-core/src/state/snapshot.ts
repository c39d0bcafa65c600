import type { DeletedReceipt, Receipt } from '@boundbook/types';
import type {
  BookRecord,
  CoreChangeSet,
  CoreCollection,
  CoreSnapshot,
  DeliveryRecord,
  SandboxSnapshot,
  Sequences,
  WebhookRecord,
} from './records';
import { CORE_COLLECTIONS } from './records';
import { type AccountState, CoreStore } from './store';

// The persistent state as plain data, and back: what a persister writes and reads.

/**
 * The format of the snapshots a core writes. Format 2 added books' `last_record` and due times
 * to the millisecond; a snapshot of format 1 is read and brought up to format 2 as it is restored.
 */
export const SNAPSHOT_FORMAT = 2;

/**
 * The persistent state as plain data: arrays of the stored (immutable) record objects and a
 * copy of the sequences. No record is copied, so a snapshot costs one pass of references.
 */
export function snapshotStore(store: CoreStore): CoreSnapshot {
  const snapshot: CoreSnapshot = {
    format: SNAPSHOT_FORMAT,
    version: store.version,
    sequences: { ...store.sequences },
    accounts: [],
    tokens: [],
    books: [],
    receipts: [],
    deleted_receipts: [],
    audit: [],
    webhooks: [],
    deliveries: [],
  };
  for (const account of store.accounts.values()) {
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

/**
 * A store rebuilt from a snapshot of {@link snapshotStore}: records in place through the store,
 * so every index is derived again. A snapshot of another format, a record that is not an object
 * with an id, a record that names an account, book or receipt the snapshot lacks, or an id above
 * its sequence, is a damaged snapshot and throws a `TypeError` that names the record.
 */
export function restoreStore(snapshot: SandboxSnapshot): CoreStore {
  const { format } = snapshot;
  if (typeof format === 'number' && format > SNAPSHOT_FORMAT) {
    fail(`it is of format ${format}, newer than format ${SNAPSHOT_FORMAT}, the newest this version reads: use the version that wrote it, or a later one`);
  }
  if (format !== 1 && format !== SNAPSHOT_FORMAT) fail(`format ${String(format)} is not a snapshot format (1 to ${SNAPSHOT_FORMAT})`);
  const data = snapshot as Partial<CoreSnapshot>;
  const store = new CoreStore();
  store.loadCounters(typeof data.version === 'number' ? data.version : 0, data.sequences);
  const owner = (accountId: unknown, what: string): AccountState =>
    store.accounts.get(accountId as number) ?? fail(`${what} belongs to account ${String(accountId)}, which it lacks`);
  for (const record of records(data, 'accounts', 'account')) {
    if (store.accounts.has(record.id)) fail(`account ${record.id} is there twice`);
    store.loadAccount(record);
  }
  for (const token of records(data, 'tokens', 'token')) {
    store.load(owner(token.account_id, `token ${token.id}`), 'tokens', token);
  }
  // Files written before books kept `last_record` get it from their receipts, deleted ones included.
  const storedLast = new Map<number, number | undefined>();
  const highest = new Map<number, number>();
  for (const book of byId(records(data, 'books', 'book'))) {
    store.load(owner(book.account_id, `book ${book.id}`), 'books', { ...book, last_record: book.last_record ?? 0 });
    storedLast.set(book.id, (book as Partial<BookRecord>).last_record);
  }
  const receiptOwners = new Map<number, AccountState>();
  const restoreReceipt = (receipt: Receipt, collection: 'receipts' | 'deleted_receipts', what: string): void => {
    const account = owner(receipt.user_id, `${what} ${receipt.id}`);
    const book =
      account.books.get(receipt.book) ??
      fail(`${what} ${receipt.id} names the book ${JSON.stringify(receipt.book)}, which account ${receipt.user_id} lacks`);
    if (receiptOwners.has(receipt.id)) fail(`receipt ${receipt.id} is there twice`);
    highest.set(book.record.id, Math.max(highest.get(book.record.id) ?? 0, receipt.record));
    store.load(account, collection, receipt as DeletedReceipt);
    receiptOwners.set(receipt.id, account);
  };
  for (const receipt of byId(records(data, 'receipts', 'receipt'))) restoreReceipt(receipt, 'receipts', 'receipt');
  for (const receipt of byId(records(data, 'deleted_receipts', 'deleted receipt'))) {
    restoreReceipt(receipt, 'deleted_receipts', 'deleted receipt');
  }
  for (const account of store.accounts.values()) {
    for (const { record } of account.books.values()) {
      const top = highest.get(record.id) ?? 0;
      const stored = storedLast.get(record.id);
      if (stored === undefined) store.load(account, 'books', { ...record, last_record: top });
      else if (stored < top) fail(`book ${record.id} gives ${stored} as its last record number, below its receipts' ${top}`);
    }
  }
  for (const entry of byId(records(data, 'audit', 'audit entry'))) {
    const account = receiptOwners.get(entry.receipt_id) ?? fail(`audit entry ${entry.id} belongs to receipt ${entry.receipt_id}, which it lacks`);
    store.load(account, 'audit', entry);
  }
  for (const webhook of byId(records(data, 'webhooks', 'webhook'))) {
    store.load(owner(webhook.account_id, `webhook ${webhook.id}`), 'webhooks', restoreWebhook(webhook));
  }
  for (const delivery of records(data, 'deliveries', 'delivery')) {
    store.load(owner(delivery.account_id, `delivery ${delivery.id}`), 'deliveries', restoreDelivery(delivery));
  }
  checkSequences(store, data);
  return store;
}

const SEQUENCE_OF: Partial<Record<CoreCollection, keyof Sequences>> = {
  accounts: 'account',
  tokens: 'token',
  books: 'book',
  receipts: 'receipt',
  deleted_receipts: 'receipt',
  audit: 'audit',
  webhooks: 'webhook',
};

/** Every id is at most its sequence: else the next record would take an id already given. */
function checkSequences(store: CoreStore, data: Partial<CoreSnapshot>): void {
  for (const [collection, kind] of Object.entries(SEQUENCE_OF) as [CoreCollection, keyof Sequences][]) {
    for (const record of (data[collection] ?? []) as { id: number }[]) {
      if (record.id > store.sequences[kind]) {
        fail(`the ${kind} sequence is at ${store.sequences[kind]}, below the id of ${kind} ${record.id}`);
      }
    }
  }
  for (const receipt of [...(data.receipts ?? []), ...(data.deleted_receipts ?? [])]) {
    for (const document of receipt.documents) {
      if (document.id > store.sequences.document) {
        fail(`the document sequence is at ${store.sequences.document}, below the id of document ${document.id}`);
      }
    }
  }
}

/** The records of a collection, each checked to be an object with an id. */
function records<C extends CoreCollection>(data: Partial<CoreSnapshot>, collection: C, what: string): CoreSnapshot[C] {
  const list = data[collection] ?? [];
  if (!Array.isArray(list)) fail(`${collection} is not a list`);
  list.forEach((record: unknown, position) => {
    const id = (record as { id?: unknown } | null)?.id;
    if (typeof record !== 'object' || record === null || (typeof id !== 'number' && typeof id !== 'string')) {
      fail(`${what} at position ${position} of ${collection} is ${JSON.stringify(record)}, not a record with an id`);
    }
  });
  return list as CoreSnapshot[C];
}

/** An endpoint, with the count of failures and the delivery chaos that records saved before them lack. */
function restoreWebhook(webhook: WebhookRecord): WebhookRecord {
  const { consecutive_failures: failures, chaos } = webhook as Partial<WebhookRecord>;
  if (failures !== undefined && chaos !== undefined) return webhook;
  return { ...webhook, consecutive_failures: failures ?? 0, chaos: chaos ?? null };
}

/** A delivery, with the count of scheduled attempts that records saved before it existed lack. */
function restoreDelivery(delivery: DeliveryRecord): DeliveryRecord {
  const scheduled = (delivery as Partial<DeliveryRecord>).scheduled_attempts;
  return scheduled === undefined ? { ...delivery, scheduled_attempts: delivery.attempts.length } : delivery;
}

function byId<T extends { id: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.id - b.id);
}

function fail(reason: string): never {
  throw new TypeError(`[@boundbook/sandbox-core] cannot restore the snapshot: ${reason}`);
}

/** A stored record as the replay sees it: anything with an id. */
interface Identified {
  readonly id: number | string;
}

const KNOWN_COLLECTIONS: ReadonlySet<string> = new Set(CORE_COLLECTIONS);

/**
 * Brings a snapshot up to date with change sets, one at a time, as a persister reads them back
 * from its journal. A collection is indexed by id the first time a change touches it, so each
 * change then costs one map operation; collections that no change touches are kept as they are.
 *
 * A change set that leads to a version the snapshot already holds is skipped. One that starts
 * after the current version means that changes are missing in between, and throws a
 * `TypeError`. One that starts before the current version and leads past it is applied whole:
 * its changes put whole records in place or take them out, in order, so the ones the snapshot
 * already holds are applied again to the same effect.
 *
 * @example
 * ```ts
 * import { ChangeReplay, createSandboxCore, type CoreChangeSet } from '@boundbook/sandbox-core';
 *
 * const core = createSandboxCore({ recordChanges: true });
 * const before = core.snapshot();
 * core.createAccount();
 * const journal: CoreChangeSet[] = [core.takeChanges()];
 *
 * const replay = new ChangeReplay(before);
 * for (const changeSet of journal) replay.apply(changeSet); // true: applied
 * replay.version; // 1
 * const restored = createSandboxCore({ snapshot: replay.snapshot() }); // holds the account
 * ```
 */
export class ChangeReplay {
  readonly #source: SandboxSnapshot;
  readonly #collections = new Map<CoreCollection, Map<number | string, Identified>>();
  #version: number;
  #sequences: Sequences | undefined;

  /** Starts from `snapshot`, or from the empty state (version 0) when it is `undefined`. */
  constructor(snapshot?: SandboxSnapshot) {
    this.#source = snapshot ?? { format: SNAPSHOT_FORMAT };
    const version = this.#source['version'];
    this.#version = typeof version === 'number' ? version : 0;
  }

  /** The version of the state so far. */
  get version(): number {
    return this.#version;
  }

  /** Applies `changeSet`; answers `false` when the snapshot already held it and it was skipped. */
  apply(changeSet: CoreChangeSet): boolean {
    if (changeSet.version <= this.#version) return false;
    if (changeSet.base > this.#version) {
      throw new TypeError(
        `[@boundbook/sandbox-core] cannot apply the changes from version ${changeSet.base} to a snapshot of version ${this.#version}: the changes in between are missing`,
      );
    }
    for (const change of changeSet.changes) {
      const records = this.#records(change.collection);
      if (change.op === 'upsert') records.set(change.record.id, change.record);
      else records.delete(change.id);
    }
    this.#version = changeSet.version;
    this.#sequences = changeSet.sequences;
    return true;
  }

  /**
   * The snapshot with every applied change: the snapshot given when nothing was applied, else
   * a new one whose touched collections keep the original order, new records last.
   */
  snapshot(): SandboxSnapshot {
    if (this.#sequences === undefined) return this.#source;
    const snapshot: SandboxSnapshot = {
      ...this.#source,
      version: this.#version,
      sequences: { ...this.#sequences },
    };
    for (const [collection, records] of this.#collections) snapshot[collection] = [...records.values()];
    return snapshot;
  }

  #records(collection: CoreCollection): Map<number | string, Identified> {
    let records = this.#collections.get(collection);
    if (records !== undefined) return records;
    if (!KNOWN_COLLECTIONS.has(collection)) {
      throw new TypeError(`[@boundbook/sandbox-core] cannot apply a change to the unknown collection ${JSON.stringify(collection)}`);
    }
    records = new Map();
    const stored = this.#source[collection];
    if (Array.isArray(stored)) for (const record of stored as Identified[]) records.set(record.id, record);
    this.#collections.set(collection, records);
    return records;
  }
}

/**
 * The snapshot that `changeSets`, applied in order, make of `snapshot` (the empty state when it
 * is `undefined`); change sets the snapshot already holds are skipped.
 */
export function applyChanges(snapshot: SandboxSnapshot | undefined, changeSets: Iterable<CoreChangeSet>): SandboxSnapshot {
  const replay = new ChangeReplay(snapshot);
  for (const changeSet of changeSets) replay.apply(changeSet);
  return replay.snapshot();
}
