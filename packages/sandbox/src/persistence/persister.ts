import { type CoreChangeSet, type SandboxSnapshot, type SnapshotOptions, SNAPSHOT_FORMAT } from '@fflkit/sandbox-core';
import { type SnapshotDatabase, SnapshotFile } from './data-file';
import { encodeJournalLine, type Journal } from './journal';

/** What a persister needs of a core: its version, its snapshot and its changes. */
export interface PersistedCore {
  readonly version: number;
  /** Taken with `{ jsonOnly: true }`: the persister only serialises it. */
  snapshot(options?: SnapshotOptions): SandboxSnapshot;
  takeChanges(): CoreChangeSet;
  confirmChanges(changeSet: CoreChangeSet): void;
  revertChanges(): void;
}

// The persister: when and how the core's changes reach the disk.
//
// Performance: group commit lets every request that arrives while a write is in flight share
// the next single write, so the number of writes follows the disk, not the request rate; it
// relies on the write reading the core's state when it starts, not when it was asked for. With
// a journal, a commit costs one appended line the size of the change (O(changes)); compaction
// folds the journal into the data file in the background once it reaches `compactAtBytes`,
// relying on the snapshot and the change set being taken in one synchronous step (so they are
// of the same version) and on the sealed segments being deleted only after the data file is
// renamed into place. The write benchmark's targets (at 100k receipts 20x json-server's rate
// with p99 under 200 ms; at 1M receipts POST p99 under 50 ms) rest on these.

/**
 * The snapshots a persister takes are only serialised: records the core keeps compact stay so,
 * and taking one costs a pass of references even at a million receipts (the million benchmark's
 * POST p99 while a compaction starts).
 */
const JSON_ONLY: SnapshotOptions = { jsonOnly: true };

/** The journal size from which it is folded into the data file, unless told otherwise: 64 MiB. */
export const DEFAULT_COMPACT_AT_BYTES = 64 * 2 ** 20;

/**
 * The journal size in bytes from which the CLI's sandbox folds the journal into the data file,
 * as `FFLKIT_SANDBOX_COMPACT_AT_BYTES` sets it; `undefined` when it is unset (the sandbox's
 * default then applies). A value that is not a whole number of at least 1 is a setup mistake and
 * throws a `TypeError`.
 */
export function compactAtBytes(environment: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = environment['FFLKIT_SANDBOX_COMPACT_AT_BYTES'];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(
      `[@fflkit/sandbox] FFLKIT_SANDBOX_COMPACT_AT_BYTES must be a whole number of bytes of at least 1, not ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/**
 * The share of the data file's size that the journal reaches before it is folded in, besides
 * the default size (a quarter): a data file of a million receipts (about 1 GB) is then rewritten
 * once for every 256 MB of changes, not for every 64 MiB, and a commit's cost stays in proportion
 * to its change. The million benchmark's POST and GET p99 rest on it: ten seconds of writes there
 * start no compaction. Replaying such a journal after a crash takes a few seconds at that size.
 */
export const DEFAULT_COMPACT_AT_DATA_FILE_SHARE = 0.25;

/** Where a persister keeps the core's state: a data file, continued by a journal. */
export interface PersistenceTarget {
  readonly database: SnapshotDatabase;
  readonly journal: Journal;
  /** The journal's size in bytes from which the next commit starts a compaction. */
  readonly compactAtBytes: number;
  /**
   * When set, a compaction also waits until the journal reaches this share of the data file's
   * size (as last read or written): {@link DEFAULT_COMPACT_AT_DATA_FILE_SHARE} unless a size was
   * set. Unset, `compactAtBytes` alone decides.
   */
  readonly compactAtDataFileShare?: number | undefined;
}

/**
 * Keeps a data file in step with a core: {@link CorePersister.settle} resolves once every change
 * the core made so far is on disk, and concurrent calls share one write (group commit). Without
 * a target (a sandbox in memory) there is nothing to write: every change is durable as made, at
 * no cost per write.
 *
 * The data file is the snapshot and each write appends one line to the journal: the change set
 * of every request answered since the previous write (`core.takeChanges()`, so the core must
 * record its changes), confirmed to the core once it is on disk. A write that fails reverts the
 * core to what is on disk (`core.revertChanges()`): the changes of that write and of every
 * request made since are taken back, and each of those requests is answered with the failure,
 * so no request is acknowledged, nor shown to another, that the disk does not hold. A new data
 * file is written whole at the first commit.
 *
 * Once the journal reaches `compactAtBytes`, a commit also takes the core's snapshot, in the
 * same synchronous step as its change set, seals the journal segment it appended to, and
 * writes the snapshot to the data file in the background (in chunks, so requests go on being
 * answered and appended to a new segment); the sealed segments are deleted only once the data
 * file is renamed into place. A failed compaction deletes nothing and is tried again once the
 * journal has grown by `compactAtBytes` more. {@link CorePersister.close} folds the whole
 * journal into the data file.
 */
export class CorePersister {
  readonly #core: PersistedCore;
  readonly #target: PersistenceTarget | undefined;
  readonly #commit: GroupCommit;
  #savedVersion: number;
  /** How many times the core was reverted: an answer computed before a revert cannot stand. */
  #reverts = 0;
  #lastFailure: unknown;
  /** Whether the data file holds a snapshot for the journal to continue. */
  #snapshotWritten: boolean;
  #compaction: Promise<void> | undefined;
  #compactAt: number;
  #closing = false;

  /** Takes the core's current state as already saved: the core was just made from the file. */
  constructor(core: PersistedCore, target?: PersistenceTarget) {
    this.#core = core;
    this.#target = target;
    this.#savedVersion = core.version;
    this.#snapshotWritten = target?.database.data !== null;
    this.#compactAt = target?.compactAtBytes ?? Number.POSITIVE_INFINITY;
    this.#commit = new GroupCommit(() => this.#append());
  }

  /** Whether the core has changes that are not on disk yet. */
  get dirty(): boolean {
    return this.#target !== undefined && this.#core.version !== this.#savedVersion;
  }

  /** A mark to pass to {@link settle}: taken before a request is handled. */
  mark(): number {
    return this.#reverts;
  }

  /**
   * Resolves once every change made so far is on disk; rejects with the write's error when it
   * fails, or when a failed write reverted the core since `mark` (an answer computed before that
   * may show changes that are gone).
   */
  async settle(mark = this.#reverts): Promise<void> {
    if (this.dirty) await this.#commit.request();
    if (this.#reverts !== mark) throw this.#lastFailure;
  }

  /** Waits for writes in flight, then writes whatever changed since. */
  async flush(): Promise<void> {
    await this.#commit.idle();
    await this.settle();
  }

  /** Resolves once no compaction runs in the background. */
  async compacted(): Promise<void> {
    while (this.#compaction !== undefined) await this.#compaction;
  }

  /**
   * Writes what changed, then writes the whole state to the data file and deletes the journal's
   * segments, as at a clean shutdown. Rejects when that fails; what the journal holds stays on
   * disk then.
   */
  async close(): Promise<void> {
    await this.fold();
    await this.#target?.journal.close();
  }

  /** Writes what changed, then the whole state to the data file, folding the journal into it. */
  async fold(): Promise<void> {
    await this.flush();
    if (this.#target === undefined) return;
    await this.compacted();
    this.#closing = true;
    try {
      await this.#commit.request();
    } finally {
      this.#closing = false;
    }
  }

  async #append(): Promise<void> {
    const target = this.#target;
    if (target === undefined) return;
    const { journal, compactAtBytes } = target;
    const changeSet = this.#core.takeChanges();
    const changed = changeSet.version !== changeSet.base || changeSet.changes.length > 0;
    if (!this.#snapshotWritten) {
      if (!changed) return;
      // A new data file is written whole at its first commit: the journal continues a snapshot.
      await this.#saving(changeSet, this.#writeData(this.#core.snapshot(JSON_ONLY)));
      this.#snapshotWritten = true;
      return;
    }
    const compact = this.#closing
      ? changed || journal.segments.length > 0 || this.#formatChanged()
      : this.#compaction === undefined && journal.bytes >= this.#compactionThreshold();
    // Taken in the same synchronous step as the change set: both are of the same version.
    const snapshot = compact ? this.#core.snapshot(JSON_ONLY) : undefined;
    if (changed) await this.#saving(changeSet, journal.append(encodeJournalLine(changeSet), changeSet.base));
    if (snapshot === undefined) return;
    const compaction = this.#compact(journal, snapshot, journal.seal());
    if (this.#closing) {
      await compaction;
      return;
    }
    this.#compaction = compaction
      .then(
        () => {
          this.#compactAt = compactAtBytes;
        },
        () => {
          this.#compactAt = journal.bytes + compactAtBytes;
        },
      )
      .finally(() => {
        this.#compaction = undefined;
      });
  }

  /** The journal's size that starts the next compaction. */
  #compactionThreshold(): number {
    const share = this.#target?.compactAtDataFileShare;
    const { adapter } = this.#target!.database;
    if (share === undefined || !(adapter instanceof SnapshotFile)) return this.#compactAt;
    return Math.max(this.#compactAt, share * adapter.bytes);
  }

  /** Whether the data file is of an earlier format than the core writes: a fold rewrites it. */
  #formatChanged(): boolean {
    return this.#target?.database.data?.format !== SNAPSHOT_FORMAT;
  }

  /**
   * Waits for the write of `changeSet` and confirms it to the core; when it fails, reverts the
   * core to what is on disk and rejects.
   */
  async #saving(changeSet: CoreChangeSet, write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.#core.revertChanges();
      this.#reverts += 1;
      this.#lastFailure = error;
      this.#savedVersion = this.#core.version;
      throw error;
    }
    this.#core.confirmChanges(changeSet);
    this.#savedVersion = changeSet.version;
  }

  async #compact(journal: Journal, snapshot: SandboxSnapshot, sealed: number): Promise<void> {
    await this.#writeData(snapshot);
    await journal.removeThrough(sealed);
  }

  async #writeData(snapshot: SandboxSnapshot): Promise<void> {
    const { database } = this.#target!;
    const previous = database.data;
    database.data = snapshot;
    try {
      await database.write();
    } catch (error) {
      // The file still holds what it held.
      database.data = previous;
      throw error;
    }
  }
}

interface Batch {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(reason: unknown): void;
}

/**
 * Runs one write at a time and lets every request that arrives while a write is in flight share
 * the next single write, so that the number of writes follows the disk, not the request rate.
 *
 * A promise returned by {@link GroupCommit.request} resolves only after a write that started
 * after the call has finished, so the state the caller saw is in that write.
 */
export class GroupCommit {
  readonly #write: () => Promise<void>;
  #writing: Promise<void> | undefined;
  #next: Batch | undefined;

  constructor(write: () => Promise<void>) {
    this.#write = write;
  }

  /** Asks for a write; resolves once a write that started after this call is done. */
  request(): Promise<void> {
    this.#next ??= createBatch();
    const { promise } = this.#next;
    this.#writing ??= this.#drain();
    return promise;
  }

  /** Resolves once no write is in flight or waiting. */
  async idle(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#next !== undefined) {
        const batch = this.#next;
        this.#next = undefined;
        try {
          await this.#write();
          batch.resolve();
        } catch (error) {
          batch.reject(error);
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }
}

function createBatch(): Batch {
  let resolve!: () => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}
