import type { CoreChangeSet, SandboxSnapshot, SnapshotError } from '@fflkit/sandbox-core';
import { FileStorage, type FileStorageOptions } from './file-storage';
import { MemoryStorage } from './memory-storage';

// The seam between the sandbox and where it keeps its state. The persister (persister.ts) says
// when: it groups the core's changes, reverts the core when a commit fails, and starts a
// compaction when the storage says it is due. A storage says how: the data file and its journal
// (file-storage.ts), or nothing at all (memory-storage.ts). Another backend is one more file
// that implements `Storage`, and one more case in `openStorage`.

/**
 * Where a sandbox keeps its state. Its methods are called in this order: `open` once; then
 * commits, each followed at once, when `compactionDue` says so, by a `compact`; `close` last. One
 * call runs at a time, except a compaction, which runs on while the next commits are made.
 */
export interface Storage {
  /**
   * Whether what is committed outlives the process. A storage that is not durable (memory) is
   * never committed to: the core records no changes and no answer waits for the disk.
   */
  readonly durable: boolean;
  /**
   * Takes hold of the storage (the lock of a data file) and reads the state it holds, brought up
   * to date (a journal replayed); `null` when it holds none yet. A storage that cannot be used
   * rejects with an error that names it and says what to do (a `DataFileError`).
   */
  open(): Promise<SandboxSnapshot | null>;
  /**
   * Makes a change set durable: resolves once it is, rejects when it cannot be, keeping none of
   * it. `snapshot` gives the whole state of the change set's version, for a storage that holds
   * no state yet (a new data file is written whole).
   */
  commit(changeSet: CoreChangeSet, snapshot: () => SandboxSnapshot): Promise<void>;
  /**
   * Whether the next commit is to be followed by a compaction: by the storage's own measure, or,
   * when the sandbox is `closing`, whenever anything is to fold (the commit `changed` the state,
   * or earlier commits are not folded yet).
   */
  compactionDue(closing: boolean, changed: boolean): boolean;
  /**
   * Folds everything committed into `snapshot`, the state of the last commit's version, taken
   * with it: called at once after that commit, before any other. Resolves once folded; a failed
   * compaction keeps what was committed, and is tried again when next due.
   */
  compact(snapshot: SandboxSnapshot): Promise<void>;
  /**
   * The error that tells of a stored state the core cannot restore, naming the storage and what
   * to do.
   */
  damaged(error: SnapshotError): Error;
  /** Lets go of the storage (the lock of a data file) without folding anything. */
  close(): Promise<void>;
}

/** Where a sandbox keeps its state, as its options say. */
export interface StorageOptions extends FileStorageOptions {
  /** The path of the data file; `undefined` keeps the state in memory. */
  readonly data: string | undefined;
}

/** The storage the options name: the data file and its journal, or memory. Not opened yet. */
export function openStorage({ data, ...options }: StorageOptions): Storage {
  return data === undefined ? new MemoryStorage() : new FileStorage(data, options);
}
