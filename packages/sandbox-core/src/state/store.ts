import type { DeletedReceipt, Receipt } from '@fflkit/types';
import { misuseError, packageMessage } from '../support/errors';
import { AuditTrails } from './audit-trails';
import { DeliverySchedule } from './delivery-schedule';
import { ReceiptIndex } from './receipt-index';
import { deepFreeze } from './records';
import type {
  AccountRecord,
  AuditRecord,
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
 * store changes it: read it anywhere, change it through {@link CoreStore.put} and
 * {@link CoreStore.remove}.
 */
export interface AccountState extends AccountContents {
  record: AccountRecord;
  readonly tokens: Map<number, TokenRecord>;
  /** The last service API requests, oldest first: diagnostics, never persisted. */
  readonly requests: RequestLogRecord[];
  /** What the request log holds and what it dropped, to keep it within its limits. */
  readonly requestLog: RequestLogTally;
  /** The account's fault rules in id order: test settings, never persisted. */
  readonly faults: FaultRecord[];
  /**
   * The timestamp of the account's last event, in epoch milliseconds: a high-water mark that
   * only grows, kept through resets and reverts (derived from the deliveries on restore), so that
   * no two events of the account are ever stamped alike.
   */
  lastEventMs: number;
}

/** The running totals of an account's request log. */
interface RequestLogTally {
  /** The sum of the `size` of the entries it holds. */
  bytes: number;
  /** Entries dropped since the account was made, the oldest first. */
  dropped: number;
  /** When the newest dropped entry arrived, on the account's clock; `-Infinity` before any. */
  lastDroppedMs: number;
}

/**
 * What happened in an account, as it happens, for whoever follows it (the sandbox's event
 * stream): a service API request answered, or a delivery made or attempted. Diagnostics: a
 * change taken back later is not un-told.
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
 * every map and index in step with the stored records (receipt indexes per account and book,
 * used Form 4473 serials, tokens by hash, delivery positions, the schedule of attempts), report
 * the change to the feed a persister reads, and remember how to take it back.
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

  /** Whether changes are kept for a persister ({@link startRecording}). */
  get recording(): boolean {
    return this.#recording;
  }

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
    try {
      const result = change();
      if (this.#changed) {
        this.version += 1;
        this.revision += 1;
      }
      if (!this.#recording) this.#undo.length = 0;
      return result;
    } catch (error) {
      this.#undoTo(undoMark);
      this.#feed.length = feedMark;
      Object.assign(this.sequences, sequences);
      throw error;
    } finally {
      this.#inTransaction = false;
    }
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
    const stored = freeze(record);
    this.#change(account, collection, this.#current(account, collection, stored), stored);
    if (this.#recording) this.#feed.push({ op: 'upsert', collection, record: stored } as CoreChange);
  }

  /** Takes a record of the account out of its collection, if it is there. */
  remove<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    const previous = this.#current(account, collection, record);
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

  /** Puts a record in place without logging it: how a snapshot is loaded. */
  load<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    const stored = freeze(record);
    this.#apply(account, collection, this.#current(account, collection, stored), stored);
  }

  /**
   * Puts in place a record the store does not hold yet, without logging it: how a snapshot's
   * receipts are loaded, once they are known to be there once each. It spares looking up a
   * previous version of each (a million of them, in the million benchmark's open time).
   */
  loadNew<C extends CoreCollection>(account: AccountState, collection: C, record: CoreCollections[C]): void {
    this.#apply(account, collection, undefined, freeze(record));
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

  /** Tells every follower of an activity. */
  tell(activity: Activity): void {
    for (const follower of this.followers) follower(activity);
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
    this.#apply(account, collection, previous, next);
    this.#undo.push({ kind: 'record', account, collection, previous, next, version: this.version + 1 });
    this.#changed = true;
  }

  #assertTransaction(): void {
    if (!this.#inTransaction) throw new Error(packageMessage('a change was made outside a transaction'));
  }

  #undoTo(mark: number): void {
    for (let at = this.#undo.length - 1; at >= mark; at -= 1) {
      const undo = this.#undo[at]!;
      if (undo.kind === 'record') {
        this.#apply(undo.account, undo.collection, undo.next, undo.previous);
      } else {
        Object.assign(undo.account, undo.contents);
        for (const delivery of undo.contents.deliveries) this.schedule.add(delivery);
      }
    }
    this.#undo.length = mark;
  }

  /** The stored record of the same id (and collection) as `record`. */
  #current(account: AccountState, collection: CoreCollection, record: CoreRecord): CoreRecord | undefined {
    switch (collection) {
      case 'accounts':
        return this.accounts.get(record.id as number)?.record;
      case 'tokens':
        return account.tokens.get(record.id as number);
      case 'books':
        return account.books.get((record as BookRecord).name)?.record;
      case 'receipts':
        return account.receipts.get(record.id as number);
      case 'deleted_receipts':
        return account.deletedReceipts.get(record.id as number);
      case 'audit':
        return account.audit.find((record as AuditRecord).receipt_id, record.id as number);
      case 'webhooks':
        return account.webhooks.get(record.id as number);
      case 'deliveries':
        return findDelivery(account, record.id as string);
    }
  }

  /** Replaces `previous` by `next` (either may be absent) in the maps and indexes. */
  #apply(
    account: AccountState,
    collection: CoreCollection,
    previous: CoreRecord | undefined,
    next: CoreRecord | undefined,
  ): void {
    switch (collection) {
      case 'accounts':
        if (next === undefined) {
          this.accounts.delete(account.record.id);
        } else {
          account.record = next as AccountRecord;
          this.accounts.set(account.record.id, account);
        }
        return;
      case 'tokens': {
        const [before, after] = [previous as TokenRecord | undefined, next as TokenRecord | undefined];
        if (before !== undefined && after === undefined) account.tokens.delete(before.id);
        if (before !== undefined && before.hash !== after?.hash) this.tokensByHash.delete(before.hash);
        if (after !== undefined) {
          // Set in place: the map keeps the order of ids, which a snapshot lists.
          account.tokens.set(after.id, after);
          this.tokensByHash.set(after.hash, after);
        }
        return;
      }
      case 'books': {
        const after = next as BookRecord | undefined;
        if (after === undefined) account.books.delete((previous as BookRecord).name);
        else if (previous !== undefined) account.books.get(after.name)!.record = after;
        else account.books.set(after.name, { record: after, index: new ReceiptIndex() });
        return;
      }
      case 'receipts':
        applyReceipt(account, previous as Receipt | undefined, next as Receipt | undefined);
        return;
      case 'deleted_receipts': {
        const [before, after] = [previous as DeletedReceipt | undefined, next as DeletedReceipt | undefined];
        if (before !== undefined) {
          account.deletedReceipts.delete(before.id);
          forgetSerial(account, before);
        }
        if (after !== undefined) {
          account.deletedReceipts.set(after.id, after);
          keepSerial(account, after);
        }
        return;
      }
      case 'audit':
        account.audit.apply(previous as AuditRecord | undefined, next as AuditRecord | undefined, account);
        return;
      case 'webhooks':
        if (next === undefined) account.webhooks.delete(previous!.id as number);
        else account.webhooks.set(next.id as number, next as WebhookRecord);
        return;
      case 'deliveries':
        this.#applyDelivery(account, previous as DeliveryRecord | undefined, next as DeliveryRecord | undefined);
        return;
    }
  }

  #applyDelivery(account: AccountState, previous: DeliveryRecord | undefined, next: DeliveryRecord | undefined): void {
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
    if (rescheduled) this.schedule.add(next);
    account.lastEventMs = Math.max(account.lastEventMs, Date.parse(next.created_at));
    this.tell({ kind: 'delivery', account, record: next });
  }
}

/** A delivery of the account by its id. */
export function findDelivery(account: AccountState, id: string): DeliveryRecord | undefined {
  const position = account.deliveryPositions.get(id);
  return position === undefined ? undefined : account.deliveries[position];
}

function applyReceipt(account: AccountState, previous: Receipt | undefined, next: Receipt | undefined): void {
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
}

function keepSerial(account: AccountState, receipt: Receipt): void {
  const serial = receipt.disposition?.form_4473_serial;
  if (serial !== undefined && serial !== null) account.form4473Serials.add(serial);
}

function forgetSerial(account: AccountState, receipt: Receipt): void {
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

function newAccount(record: AccountRecord): AccountState {
  return {
    record,
    tokens: new Map(),
    requests: [],
    requestLog: { bytes: 0, dropped: 0, lastDroppedMs: Number.NEGATIVE_INFINITY },
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

/** The removal of every record a reset takes out, for the feed. */
function removals(account: AccountState): CoreChange[] {
  const changes: CoreChange[] = [];
  for (const id of account.receipts.keys()) changes.push({ op: 'remove', collection: 'receipts', id });
  for (const id of account.deletedReceipts.keys()) changes.push({ op: 'remove', collection: 'deleted_receipts', id });
  for (const entry of account.audit.held()) changes.push({ op: 'remove', collection: 'audit', id: entry.id });
  for (const book of account.books.values()) changes.push({ op: 'remove', collection: 'books', id: book.record.id });
  for (const id of account.webhooks.keys()) changes.push({ op: 'remove', collection: 'webhooks', id });
  for (const delivery of account.deliveries) changes.push({ op: 'remove', collection: 'deliveries', id: delivery.id });
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
