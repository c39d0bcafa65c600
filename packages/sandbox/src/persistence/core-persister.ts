import type { CoreChangeSet, SandboxCore, SandboxSnapshot } from '@boundbook/sandbox-core';
import { encodeJournalLine } from './encode-journal-line';
import { GroupCommit } from './group-commit';
import type { Journal } from './journal';
import type { SnapshotDatabase } from './open-database';

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
  readonly #core: SandboxCore;
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
  constructor(core: SandboxCore, database: SnapshotDatabase, journaling?: JournalOptions) {
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
