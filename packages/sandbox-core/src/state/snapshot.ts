import type { DeletedReceipt, Receipt } from '@fflkit/types';
import type {
  AuditRecord,
  BookRecord,
  CoreChangeSet,
  CoreCollection,
  CoreRecord,
  CoreSnapshot,
  DeliveryRecord,
  SandboxSnapshot,
  Sequences,
  WebhookRecord,
} from './records';
import { CreationEntry, CreationTexts, plainRecord } from './audit-trails';
import { anyCollectionEntry } from './collections';
import { misuseError, SnapshotError } from '../support/errors';
import { CORE_COLLECTIONS } from './records';
import { type AccountState, CoreStore } from './store';

// The persistent state as plain data, and back: what a persister writes and reads.

/**
 * The format of the snapshots a core writes. Format 2 added books' `last_record` and due times
 * to the millisecond; a snapshot of format 1 is read and brought up to format 2 as it is restored.
 */
export const SNAPSHOT_FORMAT = 2;

/** How a snapshot (`core.snapshot()`) hands out the records the store keeps in a compact form. */
export interface SnapshotOptions {
  /**
   * Hand out such records (audit entries `created`) as they are kept, objects that
   * `JSON.stringify` turns into the record, instead of as plain records: the snapshot is then
   * only fit to be serialised, and costs one pass of references whatever the size of the state,
   * as a persister that takes it between two requests needs. Off by default.
   */
  readonly jsonOnly?: boolean | undefined;
}

/**
 * The persistent state as plain data: arrays of the stored (immutable) record objects and a
 * copy of the sequences. No record is copied (but see {@link SnapshotOptions.jsonOnly}), so a
 * snapshot costs one pass of references.
 */
export function snapshotStore(store: CoreStore, { jsonOnly = false }: SnapshotOptions = {}): CoreSnapshot {
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
    for (const collection of CORE_COLLECTIONS) {
      const list = snapshot[collection] as CoreRecord[];
      for (const record of anyCollectionEntry(collection).list(account)) list.push(record);
    }
  }
  // Entries `created` are held compact: handed out as they are only to be serialised.
  if (!jsonOnly) snapshot.audit = snapshot.audit.map(plainRecord);
  return snapshot;
}

/**
 * Makes the function that writes a record of a snapshot as JSON text, exactly as
 * `JSON.stringify` writes it (`'null'` for a value it has no text for), faster for the records a
 * snapshot taken with {@link SnapshotOptions.jsonOnly} holds in a compact form: a writer of large
 * snapshots passes each record through it, in the snapshot's order.
 *
 * @example
 * ```ts
 * import { createSandboxCore } from '@fflkit/sandbox-core';
 * import { createSnapshotStringifier } from '@fflkit/sandbox-core/persistence';
 *
 * const snapshot = createSandboxCore().snapshot({ jsonOnly: true });
 * const stringify = createSnapshotStringifier();
 * const lines = snapshot.audit.map((entry) => stringify(entry)); // each as JSON.stringify(entry)
 * ```
 */
export function createSnapshotStringifier(): (record: unknown) => string {
  // Performance: an entry `created` is written from its receipt, its values' text taken from the
  // entry before when they are the same, in a fraction of the time of making its record and
  // stringifying that: the million benchmark's stop, which writes a million of them.
  const texts = new CreationTexts();
  return (record) =>
    record instanceof CreationEntry ? texts.text(record) : ((JSON.stringify(record) as string | undefined) ?? 'null');
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
    fail(
      `it is of format ${format}, newer than format ${SNAPSHOT_FORMAT}, the newest this version reads: use the version that wrote it, or a later one`,
    );
  }
  if (format !== 1 && format !== SNAPSHOT_FORMAT)
    fail(`format ${String(format)} is not a snapshot format (1 to ${SNAPSHOT_FORMAT})`);
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
  const receipts = byId(records(data, 'receipts', 'receipt'));
  const deletedReceipts = byId(records(data, 'deleted_receipts', 'deleted receipt'));
  const twice = firstSharedId(receipts, deletedReceipts);
  if (twice !== undefined) fail(`receipt ${twice} is there twice`);
  const accountOf = new ReceiptAccounts(store.sequences.receipt);
  const restoreReceipt = (receipt: Receipt, collection: 'receipts' | 'deleted_receipts'): void => {
    const account = store.accounts.get(receipt.user_id);
    const book = account?.books.get(receipt.book);
    if (book === undefined) failReceipt(receipt, collection, account === undefined);
    const top = highest.get(book.record.id);
    if (top === undefined || top < receipt.record) highest.set(book.record.id, receipt.record);
    store.loadNew(account!, collection, receipt as DeletedReceipt);
    accountOf.set(receipt.id, account!.record.id);
  };
  for (const receipt of receipts) restoreReceipt(receipt, 'receipts');
  for (const receipt of deletedReceipts) restoreReceipt(receipt, 'deleted_receipts');
  for (const account of store.accounts.values()) {
    for (const { record } of account.books.values()) {
      const top = highest.get(record.id) ?? 0;
      const stored = storedLast.get(record.id);
      if (stored === undefined) store.load(account, 'books', { ...record, last_record: top });
      else if (stored < top)
        fail(`book ${record.id} gives ${stored} as its last record number, below its receipts' ${top}`);
    }
  }
  let previousEntry: AuditRecord | undefined;
  for (const entry of byId(records(data, 'audit', 'audit entry'))) {
    const accountId = accountOf.get(entry.receipt_id);
    const account =
      (accountId === undefined ? undefined : store.accounts.get(accountId)) ??
      fail(`audit entry ${entry.id} belongs to receipt ${entry.receipt_id}, which it lacks`);
    // Sorted by id, an entry listed twice follows itself: the later one takes its place.
    if (entry.id === previousEntry?.id) store.load(account, 'audit', entry);
    else store.loadNew(account, 'audit', entry);
    previousEntry = entry;
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

/** Throws what is wrong with a receipt whose account or book the snapshot lacks. */
function failReceipt(receipt: Receipt, collection: 'receipts' | 'deleted_receipts', noAccount: boolean): never {
  const what = `${collection === 'receipts' ? 'receipt' : 'deleted receipt'} ${receipt.id}`;
  if (noAccount) fail(`${what} belongs to account ${String(receipt.user_id)}, which it lacks`);
  fail(`${what} names the book ${JSON.stringify(receipt.book)}, which account ${receipt.user_id} lacks`);
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
  for (const receipts of [data.receipts ?? [], data.deleted_receipts ?? []]) {
    for (const receipt of receipts) {
      for (const document of receipt.documents) {
        if (document.id > store.sequences.document) {
          fail(`the document sequence is at ${store.sequences.document}, below the id of document ${document.id}`);
        }
      }
    }
  }
}

/**
 * The first receipt id listed twice in two lists sorted by id (twice in one, or in both), by a
 * walk of both at once.
 */
function firstSharedId(receipts: readonly Receipt[], deleted: readonly Receipt[]): number | undefined {
  let previous: number | undefined;
  let [a, b] = [0, 0];
  while (a < receipts.length || b < deleted.length) {
    const next =
      b >= deleted.length || (a < receipts.length && receipts[a]!.id <= deleted[b]!.id)
        ? receipts[a++]!
        : deleted[b++]!;
    if (next.id === previous) return previous;
    previous = next.id;
  }
  return undefined;
}

/** Receipt ids up to this are kept in a typed array by {@link ReceiptAccounts}; others in a Map. */
const DENSE_RECEIPT_IDS = 1 << 23;

/**
 * The account of each receipt restored, by receipt id, to find the account of each audit
 * entry. Receipt ids run from 1 to their sequence, so they index a typed array (4 bytes each,
 * read in order); a Map holds those past {@link DENSE_RECEIPT_IDS} or an account id too large.
 * A million entries are placed without a lookup in a Map of a million (the million benchmark's
 * open time).
 */
class ReceiptAccounts {
  readonly #dense: Int32Array;
  readonly #sparse = new Map<number, number>();

  constructor(sequence: number) {
    this.#dense = new Int32Array(Math.min(Math.max(sequence, 0), DENSE_RECEIPT_IDS) + 1);
  }

  set(receiptId: number, accountId: number): void {
    if (this.#isDense(receiptId) && Number.isInteger(accountId) && accountId > 0 && accountId <= 0x7fffffff) {
      this.#dense[receiptId] = accountId;
    } else {
      this.#sparse.set(receiptId, accountId);
    }
  }

  get(receiptId: number): number | undefined {
    const dense = this.#isDense(receiptId) ? this.#dense[receiptId]! : 0;
    return dense !== 0 ? dense : this.#sparse.get(receiptId);
  }

  #isDense(receiptId: number): boolean {
    return Number.isInteger(receiptId) && receiptId >= 0 && receiptId < this.#dense.length;
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

/** The records by ascending id: the list itself when it is in that order, as snapshots list most. */
function byId<T extends { id: number }>(list: readonly T[]): readonly T[] {
  for (let at = 1; at < list.length; at += 1) {
    if (list[at - 1]!.id > list[at]!.id) return [...list].sort((a, b) => a.id - b.id);
  }
  return list;
}

function fail(reason: string): never {
  throw new SnapshotError(reason);
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
 * import { createSandboxCore, type CoreChangeSet } from '@fflkit/sandbox-core';
 * import { ChangeReplay } from '@fflkit/sandbox-core/persistence';
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
      throw misuseError(
        `cannot apply the changes from version ${changeSet.base} to a snapshot of version ${this.#version}: the changes in between are missing`,
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
      throw misuseError(`cannot apply a change to the unknown collection ${JSON.stringify(collection)}`);
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
export function applyChanges(
  snapshot: SandboxSnapshot | undefined,
  changeSets: Iterable<CoreChangeSet>,
): SandboxSnapshot {
  const replay = new ChangeReplay(snapshot);
  for (const changeSet of changeSets) replay.apply(changeSet);
  return replay.snapshot();
}
