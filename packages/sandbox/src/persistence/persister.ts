import type { CoreChangeSet, SandboxSnapshot, SnapshotOptions } from '@fflkit/sandbox-core';
import type { Storage } from './storage';

/** What a persister needs of a core: its version, its snapshot and its changes. */
export interface PersistedCore {
  readonly version: number;
  /** Taken with `{ jsonOnly: true }`: the persister only serialises it. */
  snapshot(options?: SnapshotOptions): SandboxSnapshot;
  takeChanges(): CoreChangeSet;
  confirmChanges(changeSet: CoreChangeSet): void;
  revertChanges(): void;
}

// The persister: when the core's changes reach the storage, and what happens when they cannot.
//
// Performance: group commit lets every request that arrives while a commit is in flight share
// the next single commit, so the number of commits (and of flushes to the disk) follows the
// disk, not the request rate; it relies on the commit reading the core's state when it starts,
// not when it was asked for. A compaction's snapshot is taken in the same synchronous step as
// the change set of the commit it follows, so both are of the same version.

/**
 * The snapshots a persister takes are only serialised: records the core keeps compact stay so,
 * and taking one costs a pass of references even at a million receipts (the million benchmark's
 * POST p99 while a compaction starts).
 */
const JSON_ONLY: SnapshotOptions = { jsonOnly: true };

/**
 * Keeps a storage in step with a core: {@link CorePersister.settle} resolves once every change
 * the core made so far is committed, and concurrent calls share one commit (group commit). A
 * storage that is not durable (memory) is never committed to: every change is as durable as
 * made, at no cost per write.
 *
 * Each commit carries the change set of every request answered since the previous one
 * (`core.takeChanges()`, so the core must record its changes), confirmed to the core once the
 * storage holds it. A commit that fails reverts the core to what the storage holds
 * (`core.revertChanges()`): the changes of that commit and of every request made since are taken
 * back, and each of those requests is answered with the failure, so no request is acknowledged,
 * nor shown to another, that the storage does not hold.
 *
 * When the storage says a compaction is due, it follows the commit in the background; one runs
 * at a time. {@link CorePersister.close} folds everything into one snapshot, then closes the
 * storage.
 */
export class CorePersister {
  readonly #core: PersistedCore;
  readonly #storage: Storage;
  readonly #commit: GroupCommit;
  #savedVersion: number;
  /** How many times the core was reverted: an answer computed before a revert cannot stand. */
  #reverts = 0;
  #lastFailure: unknown;
  #compaction: Promise<void> | undefined;
  #closing = false;

  /** Takes the core's current state as already saved: the core was just made from the storage. */
  constructor(core: PersistedCore, storage: Storage) {
    this.#core = core;
    this.#storage = storage;
    this.#savedVersion = core.version;
    this.#commit = new GroupCommit(() => this.#append());
  }

  /** Whether the core has changes that the storage does not hold yet. */
  get dirty(): boolean {
    return this.#storage.durable && this.#core.version !== this.#savedVersion;
  }

  /** A mark to pass to {@link settle}: taken before a request is handled. */
  mark(): number {
    return this.#reverts;
  }

  /**
   * Resolves once every change made so far is committed; rejects with the commit's error when it
   * fails, or when a failed commit reverted the core since `mark` (an answer computed before that
   * may show changes that are gone).
   */
  async settle(mark = this.#reverts): Promise<void> {
    if (this.dirty) await this.#commit.request();
    if (this.#reverts !== mark) throw this.#lastFailure;
  }

  /** Waits for commits in flight, then commits whatever changed since. */
  async flush(): Promise<void> {
    await this.#commit.idle();
    await this.settle();
  }

  /** Resolves once no compaction runs in the background. */
  async compacted(): Promise<void> {
    while (this.#compaction !== undefined) await this.#compaction;
  }

  /**
   * Commits what changed, folds everything into one snapshot (the data file, its journal
   * deleted), as at a clean shutdown, then closes the storage. Rejects when that fails; what the
   * storage holds stays then.
   */
  async close(): Promise<void> {
    await this.fold();
    await this.#storage.close();
  }

  /** Commits what changed, then folds everything committed into one snapshot. */
  async fold(): Promise<void> {
    await this.flush();
    if (!this.#storage.durable) return;
    await this.compacted();
    this.#closing = true;
    try {
      await this.#commit.request();
    } finally {
      this.#closing = false;
    }
  }

  async #append(): Promise<void> {
    const storage = this.#storage;
    if (!storage.durable) return;
    const changeSet = this.#core.takeChanges();
    const changed = changeSet.version !== changeSet.base || changeSet.changes.length > 0;
    const compact = this.#closing
      ? storage.compactionDue(true, changed)
      : this.#compaction === undefined && storage.compactionDue(false, changed);
    // Taken in the same synchronous step as the change set: both are of the same version.
    const snapshot = compact ? this.#core.snapshot(JSON_ONLY) : undefined;
    if (changed) {
      await this.#saving(
        changeSet,
        storage.commit(changeSet, () => snapshot ?? this.#core.snapshot(JSON_ONLY)),
      );
    }
    if (snapshot === undefined) return;
    const compaction = storage.compact(snapshot);
    if (this.#closing) {
      await compaction;
      return;
    }
    // A failed compaction keeps what is committed; the storage says when to try again.
    this.#compaction = compaction
      .catch(() => undefined)
      .finally(() => {
        this.#compaction = undefined;
      });
  }

  /**
   * Waits for the commit of `changeSet` and confirms it to the core; when it fails, reverts the
   * core to what the storage holds and rejects.
   */
  async #saving(changeSet: CoreChangeSet, commit: Promise<void>): Promise<void> {
    try {
      await commit;
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
