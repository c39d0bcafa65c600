import type { CoreChangeSet, SandboxSnapshot } from '@boundbook/sandbox-core';

/** What a persister needs of a core: its version, its snapshot and its changes. */
export interface PersistedCore {
  readonly version: number;
  snapshot(): SandboxSnapshot;
  takeChanges(): CoreChangeSet;
}
import type { SnapshotDatabase } from './data-file';
import { encodeJournalLine, type Journal } from './journal';

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

/** The journal size from which it is folded into the data file, unless told otherwise: 64 MiB. */
export const DEFAULT_COMPACT_AT_BYTES = 64 * 2 ** 20;

/**
 * The journal size in bytes from which the sandbox folds the journal into the data file:
 * `BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES` when set, else {@link DEFAULT_COMPACT_AT_BYTES}. A value
 * that is not a whole number of at least 1 is a setup mistake and throws a `TypeError`.
 */
export function compactAtBytes(environment: Readonly<Record<string, string | undefined>>): number {
  const text = environment['BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES'];
  if (text === undefined || text === '') return DEFAULT_COMPACT_AT_BYTES;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(
      `[@boundbook/sandbox] BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES must be a whole number of bytes of at least 1, not ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/** How a persister keeps a journal beside the data file. */
export interface JournalOptions {
  readonly journal: Journal;
  /** The journal's size in bytes from which the next commit starts a compaction. */
  readonly compactAtBytes: number;
}

/**
 * Keeps a lowdb database in step with a core: {@link CorePersister.persist} resolves once the
 * core's state as of the call is on disk, and concurrent calls share one write (group commit).
 *
 * Without a journal (the state in memory, or a test), each write hands the whole snapshot to
 * the database. With one, the data file is the snapshot and each write appends one line to
 * the journal: the change set of every request answered since the previous write
 * (`core.takeChanges()`, so the core must record its changes). A change set whose append fails
 * leads the next append, so the journal never misses a change. A new data file is written
 * whole at the first commit.
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
  readonly #database: SnapshotDatabase;
  readonly #journaling: JournalOptions | undefined;
  readonly #commit: GroupCommit;
  #savedVersion: number;
  /** Changes taken from the core that are not on disk yet: they lead the next write. */
  #unsaved: CoreChangeSet | undefined;
  /** Whether the data file holds a snapshot for the journal to continue. */
  #snapshotWritten: boolean;
  #compaction: Promise<void> | undefined;
  #compactAt: number;
  #closing = false;

  /** Takes the core's current state as already saved: the core was just made from the file. */
  constructor(core: PersistedCore, database: SnapshotDatabase, journaling?: JournalOptions) {
    this.#core = core;
    this.#database = database;
    this.#journaling = journaling;
    this.#savedVersion = core.version;
    this.#snapshotWritten = database.data !== null;
    this.#compactAt = journaling?.compactAtBytes ?? Number.POSITIVE_INFINITY;
    this.#commit = new GroupCommit(() =>
      journaling === undefined ? this.#writeSnapshot() : this.#append(journaling),
    );
  }

  /** Whether the core has changed since the last completed write. */
  get dirty(): boolean {
    return this.#core.version !== this.#savedVersion;
  }

  /** Resolves once the core's state as of this call is written; at once when nothing changed. */
  persist(): Promise<void> {
    return this.dirty ? this.#commit.request() : Promise.resolve();
  }

  /** Waits for writes in flight, then writes whatever changed since. */
  async flush(): Promise<void> {
    await this.#commit.idle();
    await this.persist();
  }

  /** Resolves once no compaction runs in the background. */
  async compacted(): Promise<void> {
    while (this.#compaction !== undefined) await this.#compaction;
  }

  /**
   * Writes what changed, then (with a journal) writes the whole state to the data file and
   * deletes the journal's segments, as at a clean shutdown. Rejects when that fails; what the
   * journal holds stays on disk then.
   */
  async close(): Promise<void> {
    await this.flush();
    const journaling = this.#journaling;
    if (journaling === undefined) return;
    await this.compacted();
    this.#closing = true;
    await this.#commit.request();
    await journaling.journal.close();
  }

  async #writeSnapshot(): Promise<void> {
    const version = this.#core.version;
    this.#database.data = this.#core.snapshot();
    await this.#database.write();
    this.#savedVersion = version;
  }

  async #append({ journal, compactAtBytes }: JournalOptions): Promise<void> {
    const changeSet = this.#takeChanges();
    const changed = changeSet.version !== changeSet.base || changeSet.changes.length > 0;
    if (!this.#snapshotWritten) {
      if (!changed) return;
      // A new data file is written whole at its first commit: the journal continues a snapshot.
      await this.#saving(changeSet, this.#writeData(this.#core.snapshot()));
      this.#snapshotWritten = true;
      return;
    }
    const compact = this.#closing
      ? changed || journal.segments.length > 0
      : this.#compaction === undefined && journal.bytes >= this.#compactAt;
    // Taken in the same synchronous step as the change set: both are of the same version.
    const snapshot = compact ? this.#core.snapshot() : undefined;
    if (changed) await this.#saving(changeSet, journal.append(encodeJournalLine(changeSet)));
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

  /** Waits for the write of `changeSet`; when it fails, the change set leads the next write. */
  async #saving(changeSet: CoreChangeSet, write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      this.#unsaved = changeSet;
      throw error;
    }
    this.#savedVersion = changeSet.version;
  }

  /** The core's changes since the last take, after those of a failed write. */
  #takeChanges(): CoreChangeSet {
    const next = this.#core.takeChanges();
    const unsaved = this.#unsaved;
    if (unsaved === undefined) return next;
    this.#unsaved = undefined;
    return { ...next, base: unsaved.base, changes: [...unsaved.changes, ...next.changes] };
  }

  async #compact(journal: Journal, snapshot: SandboxSnapshot, sealed: number): Promise<void> {
    await this.#writeData(snapshot);
    await journal.removeThrough(sealed);
  }

  async #writeData(snapshot: SandboxSnapshot): Promise<void> {
    this.#database.data = snapshot;
    await this.#database.write();
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
