import type { DeletedReceipt, Receipt } from '@fflkit/types';
import { misuseError, packageMessage } from '../support/errors';
import { AuditTrails } from './audit-trails';
import { anyCollectionEntry, collectionEntry } from './collections';
import { DeliverySchedule } from './delivery-schedule';
import { ReceiptIndex } from './receipt-index';
import { deepFreeze } from './records';
import type {
  AccountRecord,
  BookRecord,
  CoreChange,
  CoreChangeSet,
  CoreCollection,
  CoreCollections,
  CoreRecord,
  DeliveryRecord,
  FaultRecord,
  RequestLogRecord,
  Sequences,
  TokenRecord,
  WebhookRecord,
} from './records';
import { type RequestLogInput, type RequestLogLimits, RequestRing } from './request-ring';

/** A book and the index of its live receipts. */
export interface BookState {
  record: BookRecord;
  readonly index: ReceiptIndex;
}

/** What an account owns besides its record and tokens: what a reset empties. */
export interface AccountContents {
  /** Books by name, in id order. */
  books: Map<string, BookState>;
  /** Live receipts by id. */
  receipts: Map<number, Receipt>;
  /** Soft-deleted receipts by id: 404 to the API, kept with their audit trail. */
  deletedReceipts: Map<number, DeletedReceipt>;
  /** Live receipts of the whole account, by id. */
  index: ReceiptIndex;
  /** Audit entries per receipt id, oldest first. */
  audit: AuditTrails;
  /** Form 4473 serials used by dispositions, deleted receipts included. */
  form4473Serials: Set<string>;
  /** Webhook endpoints by id, in id order. */
  webhooks: Map<number, WebhookRecord>;
  /** Deliveries, oldest first. */
  deliveries: DeliveryRecord[];
  /** The position of each delivery in `deliveries`, by delivery id. */
  deliveryPositions: Map<string, number>;
}

/**
 * Everything one account owns, with the indexes that keep reads and writes cheap. Only the
 * store changes it: read it anywhere, change its records through {@link CoreStore.put} and
 * {@link CoreStore.remove}, its request log and fault rules through their methods of the store.
 * The one change made elsewhere is a fault rule's counters (`fired`, `draws`), which
 * `routing/fault-injection.ts` moves as the rule fires: rules live in memory only, are never
 * persisted nor taken back, and their counters belong to no record that is serialised by
 * identity.
 */
export interface AccountState extends AccountContents {
  record: AccountRecord;
  readonly tokens: Map<number, TokenRecord>;
  /** The last service API requests, oldest first, and what the log dropped: diagnostics, never persisted. */
  readonly requests: RequestRing;
  /** The account's fault rules in id order: test settings, never persisted. */
  readonly faults: FaultRecord[];
  /**
   * The timestamp of the account's last event, in epoch milliseconds: a high-water mark that
   * only grows, kept through resets and reverts (derived from the deliveries on restore), so that
   * no two events of the account are ever stamped alike.
   */
  lastEventMs: number;
}

/**
 * What happened in an account, for whoever follows it (the sandbox's event stream): a service
 * API request answered, or a delivery made or attempted. A delivery is told once the transaction
 * that changed it commits; never while a snapshot is loaded, a transaction is taken back, or the
 * state reverted to what is durable. A change reverted after its commit (a failed write) is not
 * un-told: this is diagnostics.
 */
export type Activity =
  | { readonly kind: 'request'; readonly account: AccountState; readonly record: RequestLogRecord }
  | { readonly kind: 'delivery'; readonly account: AccountState; readonly record: DeliveryRecord };

/** How to take back one change: the record as it was, or the contents a reset swapped out. */
type Undo =
  | {
      readonly kind: 'record';
      readonly account: AccountState;
      readonly collection: CoreCollection;
      readonly previous: CoreRecord | undefined;
      readonly next: CoreRecord | undefined;
      readonly version: number;
    }
  | {
      readonly kind: 'contents';
      readonly account: AccountState;
      readonly contents: AccountContents;
      readonly version: number;
    };

const SEQUENCE_KINDS = ['account', 'token', 'book', 'receipt', 'audit', 'webhook', 'document'] as const;

/**
 * A core's state and the one entry point for changing it. {@link put} and {@link remove} keep
 * every map and index in step with the stored records through the entry of the record's
 * collection (`collections.ts`: receipt indexes per account and book, used Form 4473 serials,
 * tokens by hash, delivery positions, the schedule of attempts), report the change to the feed a
 * persister reads, and remember how to take it back.
 *
 * Changes are made inside {@link transaction}: one handled request, or one recorded delivery
 * attempt. A transaction that throws leaves nothing behind, and one that changed something moves
 * `version` by one. A core that is persisted keeps the undo of every change until its change set
 * is confirmed on disk, so that a failed write can {@link revert} to what is durable: ids and
 * record numbers given to refused writes are given again, and no request sees a change vanish.
 */
export class CoreStore {
  /** The persistent state's version: moves once per transaction that changed something. */
  version = 0;
  /** Moves with every change and every revert, never back: what cached answers are keyed on. */
  revision = 0;
  /** Last id given to a request log entry; the log is diagnostics and is not persisted. */
  lastRequestId = 0;
  /** Last id given to a fault rule; rules are test settings and are not persisted. */
  lastFaultId = 0;
  readonly sequences: Sequences = { account: 0, token: 0, book: 0, receipt: 0, audit: 0, webhook: 0, document: 0 };
  readonly accounts = new Map<number, AccountState>();
  /** Every token, revoked ones included, by the sha256 hex hash of its value. */
  readonly tokensByHash = new Map<string, TokenRecord>();
  /** The scheduled delivery attempts of every account, by due time; derived, not persisted. */
  readonly schedule = new DeliverySchedule();

  /** Who follows what happens in the accounts; see {@link Activity}. */
  readonly followers = new Set<(activity: Activity) => void>();

  #recording = false;
  #feed: CoreChange[] = [];
  #feedBase = 0;
  #undo: Undo[] = [];
  #confirmed: { version: number; sequences: Sequences } = { version: 0, sequences: { ...this.sequences } };
  #inTransaction = false;
  #changed = false;
  /** What the followers are told once the transaction commits. */
  #untold: Activity[] = [];

  /** The next id of a kind of record. */
  nextId(kind: keyof Sequences): number {
    this.sequences[kind] += 1;
    return this.sequences[kind];
  }

  /**
   * Runs `change` as one transaction: all of its changes stay, or (when it throws) none. Nested
   * calls join the outer transaction.
   */
  transaction<T>(change: () => T): T {
    if (this.#inTransaction) return change();
    const undoMark = this.#undo.length;
    const feedMark = this.#feed.length;
    const sequences = { ...this.sequences };
    this.#inTransaction = true;
    this.#changed = false;
    let result: T;
    try {
      result = change();
    } catch (error) {
      this.#undoTo(undoMark);
      this.#feed.length = feedMark;
      this.#untold.length = 0;
      Object.assign(this.sequences, sequences);
      throw error;
    } finally {
      this.#inTransaction = false;
    }
    if (this.#changed) {
      this.version += 1;
      this.revision += 1;
    }
    if (!this.#recording) this.#undo.length = 0;
    const untold = this.#untold;
    this.#untold = [];
    for (const activity of untold) this.#tell(activity);
    return result;
  }

  /** Makes a new account's state and stores its record. */
  addAccount(record: AccountRecord): AccountState {
    const account = newAccount(record);
    this.put(account, 'accounts', record);
    return account;
  }

  /** Makes an account's state from its record without logging it: how a snapshot is loaded. */
  loadAccount(record: AccountRecord): AccountState {
    const account = newAccount(record);
    this.load(account, 'accounts', record);
    return account;
  }

  /** Puts a record of the account in place, new or replacing the record of its id. */
  put<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    const entry = collectionEntry(collection);
    const stored = freeze(record);
    this.#change(account, collection, entry.current(this, account, stored), stored);
    if (entry.activity !== undefined) this.#untold.push(entry.activity(account, stored));
    if (this.#recording) this.#feed.push({ op: 'upsert', collection, record: stored } as CoreChange);
  }

  /** Takes a record of the account out of its collection, if it is there. */
  remove<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    const previous = collectionEntry(collection).current(this, account, record);
    if (previous === undefined) return;
    this.#change(account, collection, previous, undefined);
    if (this.#recording) this.#feed.push({ op: 'remove', collection, id: record.id } as CoreChange);
  }

  /**
   * Empties the account's books, receipts, audit trails, endpoints and deliveries at once (its
   * record and tokens stay): the contents are swapped out whole, so that a reset of a large
   * account costs no index work and is taken back in one step.
   */
  clearContents(account: AccountState): void {
    this.#assertTransaction();
    if (this.#recording) this.#feed.push(...removals(account));
    this.#undo.push({ kind: 'contents', account, contents: contentsOf(account), version: this.version + 1 });
    Object.assign(account, emptyContents());
    this.schedule.clear(account.record.id);
    this.#changed = true;
  }

  /** Takes the account out with everything it owns: its tokens get 401 from then on. */
  removeAccount(account: AccountState): void {
    this.clearContents(account);
    for (const token of [...account.tokens.values()]) this.remove(account, 'tokens', token);
    this.remove(account, 'accounts', account.record);
  }

  /** Puts a record in place without logging or telling it: how a snapshot is loaded. */
  load<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    const entry = collectionEntry(collection);
    const stored = freeze(record);
    entry.apply(this, account, entry.current(this, account, stored), stored);
  }

  /**
   * Puts in place a record the store does not hold yet, without logging it: how a snapshot's
   * receipts are loaded, once they are known to be there once each. It spares looking up a
   * previous version of each (a million of them, in the million benchmark's open time).
   */
  loadNew<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    collectionEntry(collection).apply(this, account, undefined, freeze(record));
  }

  /**
   * Appends an answered request to the account's log with the next id, drops the oldest entries
   * while the log holds more than `limits` (the newest always stays), and tells the followers.
   * The log is diagnostics: never persisted, never versioned, never taken back.
   */
  logRequest(account: AccountState, entry: RequestLogInput, limits: RequestLogLimits): void {
    const { requests } = account;
    requests.push((this.lastRequestId += 1), entry, limits);
    // The entry's record is made only for someone who follows it.
    if (this.followers.size > 0) this.#tell({ kind: 'request', account, record: requests.at(requests.length - 1) });
  }

  /** Adds a fault rule after the account's others, with the next id. Test settings: never persisted. */
  addFault(account: AccountState, rule: Omit<FaultRecord, 'id'>): FaultRecord {
    const added: FaultRecord = { id: (this.lastFaultId += 1), ...rule };
    account.faults.push(added);
    return added;
  }

  /** Deletes one fault rule of the account; answers whether it had it. */
  removeFault(account: AccountState, id: number): boolean {
    const at = account.faults.findIndex((rule) => rule.id === id);
    if (at === -1) return false;
    account.faults.splice(at, 1);
    return true;
  }

  /** Deletes every fault rule of the account. */
  clearFaults(account: AccountState): void {
    account.faults.length = 0;
  }

  /**
   * The moment of a new event of the account, in epoch milliseconds: `nowMs`, or a millisecond
   * after the account's last event when that is not earlier. The mark only grows, through resets
   * and reverts, so that no two events of an account are ever stamped alike.
   */
  stampEvent(account: AccountState, nowMs: number): number {
    account.lastEventMs = Math.max(nowMs, account.lastEventMs + 1);
    return account.lastEventMs;
  }

  /** Starts keeping changes for a persister, from the current version. */
  startRecording(): void {
    this.#recording = true;
    this.#feedBase = this.version;
    this.#feed = [];
    this.#confirmed = { version: this.version, sequences: { ...this.sequences } };
  }

  /**
   * The changes since the last call (or since recording started), leading to the current
   * version. They stay revertible until {@link confirm} is called with a later change set.
   */
  takeChanges(): CoreChangeSet {
    if (!this.#recording) {
      throw misuseError('takeChanges() needs a core made with createSandboxCore({ recordChanges: true })');
    }
    const set: CoreChangeSet = {
      base: this.#feedBase,
      version: this.version,
      sequences: { ...this.sequences },
      changes: this.#feed,
    };
    this.#feedBase = this.version;
    this.#feed = [];
    return set;
  }

  /** Takes a change set as durable: its changes can no longer be reverted. */
  confirm(changeSet: CoreChangeSet): void {
    if (changeSet.version <= this.#confirmed.version) return;
    this.#confirmed = { version: changeSet.version, sequences: { ...changeSet.sequences } };
    let kept = 0;
    while (kept < this.#undo.length && this.#undo[kept]!.version <= changeSet.version) kept += 1;
    this.#undo.splice(0, kept);
  }

  /**
   * Takes back every change since the last confirmed change set, in reverse order, with the id
   * sequences and the version as they were then: the state is the durable one again. The
   * changes taken but not confirmed are dropped; the next {@link takeChanges} starts from there.
   */
  revert(): void {
    this.#undoTo(0);
    this.version = this.#confirmed.version;
    Object.assign(this.sequences, this.#confirmed.sequences);
    this.#feed = [];
    this.#feedBase = this.version;
    this.revision += 1;
  }

  /** Sets the version and sequences a loaded snapshot had. */
  loadCounters(version: number, sequences: Partial<Sequences> | undefined): void {
    this.version = version;
    for (const kind of SEQUENCE_KINDS) {
      const value = sequences?.[kind];
      if (typeof value === 'number') this.sequences[kind] = value;
    }
  }

  #change(
    account: AccountState,
    collection: CoreCollection,
    previous: CoreRecord | undefined,
    next: CoreRecord | undefined,
  ): void {
    this.#assertTransaction();
    anyCollectionEntry(collection).apply(this, account, previous, next);
    this.#undo.push({ kind: 'record', account, collection, previous, next, version: this.version + 1 });
    this.#changed = true;
  }

  #tell(activity: Activity): void {
    for (const follower of this.followers) follower(activity);
  }

  #assertTransaction(): void {
    if (!this.#inTransaction) throw new Error(packageMessage('a change was made outside a transaction'));
  }

  #undoTo(mark: number): void {
    for (let at = this.#undo.length - 1; at >= mark; at -= 1) {
      const undo = this.#undo[at]!;
      if (undo.kind === 'record') {
        anyCollectionEntry(undo.collection).apply(this, undo.account, undo.next, undo.previous);
      } else {
        Object.assign(undo.account, undo.contents);
        for (const delivery of undo.contents.deliveries) this.schedule.add(delivery);
      }
    }
    this.#undo.length = mark;
  }
}

function newAccount(record: AccountRecord): AccountState {
  return {
    record,
    tokens: new Map(),
    requests: new RequestRing(),
    faults: [],
    lastEventMs: Number.NEGATIVE_INFINITY,
    ...emptyContents(),
  };
}

function emptyContents(): AccountContents {
  return {
    books: new Map(),
    receipts: new Map(),
    deletedReceipts: new Map(),
    index: new ReceiptIndex(),
    audit: new AuditTrails(),
    form4473Serials: new Set(),
    webhooks: new Map(),
    deliveries: [],
    deliveryPositions: new Map(),
  };
}

function contentsOf(account: AccountState): AccountContents {
  const { books, receipts, deletedReceipts, index, audit, form4473Serials, webhooks, deliveries, deliveryPositions } =
    account;
  return { books, receipts, deletedReceipts, index, audit, form4473Serials, webhooks, deliveries, deliveryPositions };
}

/**
 * The collections of what an account owns besides its record and tokens, which a reset empties,
 * in the order its feed reports their removal: the records before the books that hold them.
 */
const CONTENT_COLLECTIONS: readonly CoreCollection[] = [
  'receipts',
  'deleted_receipts',
  'audit',
  'books',
  'webhooks',
  'deliveries',
];

/** The removal of every record a reset takes out, for the feed. */
function removals(account: AccountState): CoreChange[] {
  const changes: CoreChange[] = [];
  for (const collection of CONTENT_COLLECTIONS) {
    for (const record of anyCollectionEntry(collection).list(account)) {
      changes.push({ op: 'remove', collection, id: record.id } as CoreChange);
    }
  }
  return changes;
}

/**
 * Freezes a record and every object it holds, so that no answer body or event can change what
 * is stored: a change always makes a new record. Frozen parts (shared with the previous version
 * of the record) are not walked again.
 */
function freeze<R extends CoreRecord>(record: R): R {
  deepFreeze(record);
  return record;
}

// Performance: for...in, not Object.values, so that freezing a record allocates nothing; a
// snapshot of a million receipts freezes each as it is loaded (the million benchmark's open
// time). Records are plain objects and arrays, whose prototypes have no enumerable member.
