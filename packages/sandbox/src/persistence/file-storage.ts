import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CoreChangeSet, SandboxSnapshot, SnapshotError } from '@fflkit/sandbox-core';
import { SNAPSHOT_FORMAT } from '@fflkit/sandbox-core/persistence';
import { Low } from 'lowdb';
import {
  DataFileError,
  type FileSystem,
  makeFolder,
  nodeFileSystem,
  type SnapshotDatabase,
  SnapshotFile,
} from './data-file';
import { encodeJournalLine, Journal, replayJournal } from './journal';
import { DataFileLock } from './lock';
import type { Storage } from './storage';
import { packageMessage } from '../support/errors';

// The data file and its journal as a storage: one sandbox per file (its lock), the file read and
// its journal replayed at open, a commit appended to the journal as one line, and a compaction
// that writes the whole state to the data file and deletes the journal segments it holds.
//
// Performance: with a journal, a commit costs one appended line the size of the change
// (O(changes)), and one flush to the disk for every commit, however many requests it carries
// (the persister groups them). Compaction folds the journal into the data file in the
// background once it reaches `compactAtBytes` (or a share of the data file's size), relying on
// the snapshot being taken with the last commit's change set, in one synchronous step, and on
// the sealed segments being deleted only after the data file is renamed into place. The write
// benchmark's targets (at 100k receipts 20x json-server's rate with p99 under 200 ms; at 1M
// receipts POST p99 under 50 ms) rest on these.

/** The journal size from which it is folded into the data file, unless told otherwise: 64 MiB. */
export const DEFAULT_COMPACT_AT_BYTES = 64 * 2 ** 20;

/**
 * The share of the data file's size that the journal reaches before it is folded in, besides
 * the default size (a quarter): a data file of a million receipts (about 1 GB) is then rewritten
 * once for every 256 MB of changes, not for every 64 MiB, and a commit's cost stays in proportion
 * to its change. The million benchmark's POST and GET p99 rest on it: ten seconds of writes there
 * start no compaction. Replaying such a journal after a crash takes a few seconds at that size.
 */
export const DEFAULT_COMPACT_AT_DATA_FILE_SHARE = 0.25;

/** How a data file is kept. */
export interface FileStorageOptions {
  /** The file system of the data file, its journal and its lock; Node's by default (tests make it fail). */
  readonly files?: FileSystem | undefined;
  /**
   * The journal's size in bytes from which a commit starts a compaction; by default
   * {@link DEFAULT_COMPACT_AT_BYTES}, or {@link DEFAULT_COMPACT_AT_DATA_FILE_SHARE} of the data
   * file's size, whichever is larger.
   */
  readonly compactAtBytes?: number | undefined;
  /**
   * The share of the data file's size (as last read or written) that the journal also reaches
   * before a compaction; {@link DEFAULT_COMPACT_AT_DATA_FILE_SHARE} unless `compactAtBytes` is
   * given, when that size alone decides.
   */
  readonly compactAtDataFileShare?: number | undefined;
  /**
   * Whether each commit and each write of the data file reaches the disk before it resolves
   * (`fdatasync`), so that an acknowledged write survives the machine stopping, not only the
   * process. On by default; off, a commit costs no flush and survives a killed process only.
   */
  readonly flush?: boolean | undefined;
}

/** What a storage holds once open. */
interface Opened {
  readonly file: string;
  readonly lock: DataFileLock;
  readonly snapshotFile: SnapshotFile;
  readonly database: SnapshotDatabase;
  readonly journal: Journal;
}

/**
 * The data file at `path` and its journal: the JSON snapshot, continued by numbered journal
 * segments beside it (`NAME.journal.N`), and the lock that keeps a second sandbox off them.
 *
 * The first commit to a new data file writes it whole; every later one appends one line to the
 * journal. Once the journal reaches its threshold, the next commit is followed by a compaction:
 * the journal segment it appended to is sealed, and the snapshot taken with it is written to the
 * data file in the background (in chunks, so requests go on being answered and appended to a new
 * segment); the sealed segments are deleted only once the data file is renamed into place. A
 * failed compaction deletes nothing and is tried again once the journal has grown by
 * `compactAtBytes` more.
 */
export class FileStorage implements Storage {
  readonly durable = true;
  readonly #path: string;
  readonly #files: FileSystem;
  readonly #compactAtBytes: number;
  readonly #share: number | undefined;
  readonly #flush: boolean;
  #opened: Opened | undefined;
  /** The journal's size from which the next compaction starts. */
  #compactAt: number;

  constructor(path: string, options: FileStorageOptions = {}) {
    this.#path = path;
    this.#files = options.files ?? nodeFileSystem;
    this.#compactAtBytes = options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES;
    this.#share =
      options.compactAtDataFileShare ??
      (options.compactAtBytes === undefined ? DEFAULT_COMPACT_AT_DATA_FILE_SHARE : undefined);
    this.#flush = options.flush ?? true;
    this.#compactAt = this.#compactAtBytes;
  }

  /** The journal, once open: its segments and size. */
  get journal(): Journal {
    return this.#open().journal;
  }

  /** The lowdb database of the data file, once open. */
  get database(): SnapshotDatabase {
    return this.#open().database;
  }

  /**
   * Takes the data file's lock, reads the file and replays its journal. A data file that cannot
   * be used (held by another sandbox, damaged, of a newer format) rejects with a
   * {@link DataFileError} naming it, and holds nothing then.
   */
  async open(): Promise<SandboxSnapshot | null> {
    await makeFolder(this.#path, this.#files);
    // The file itself, not the path to it: a symbolic link to a data file must meet that file's
    // lock, and a write must replace the file, not the link.
    const file = await realFile(this.#path);
    const lock = await DataFileLock.acquire(file, this.#files);
    try {
      const snapshotFile = new SnapshotFile(file, this.#files, this.#flush);
      const database = new Low<SandboxSnapshot | null>(snapshotFile, null);
      await database.read();
      const format = database.data?.format;
      if (typeof format === 'number' && format > SNAPSHOT_FORMAT) {
        throw new DataFileError(
          file,
          `the data file ${file} is of format ${format}, newer than format ${SNAPSHOT_FORMAT}, the newest this version of the sandbox reads: run the version that wrote it, or a later one`,
        );
      }
      const journal = await Journal.open(file, this.#files, lock, this.#flush);
      const snapshot = await replayJournal(journal, database.data, lock.abandoned, this.#files);
      this.#opened = { file, lock, snapshotFile, database, journal };
      return snapshot;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async commit(changeSet: CoreChangeSet, snapshot: () => SandboxSnapshot): Promise<void> {
    const { database, journal } = this.#open();
    // A new data file is written whole at its first commit: the journal continues a snapshot.
    if (database.data === null) await this.#writeData(snapshot());
    else await journal.append(encodeJournalLine(changeSet), changeSet.base);
  }

  compactionDue(closing: boolean, changed: boolean): boolean {
    const { database, journal, snapshotFile } = this.#open();
    if (database.data === null) return false;
    if (closing) return changed || journal.segments.length > 0 || database.data.format !== SNAPSHOT_FORMAT;
    const threshold =
      this.#share === undefined ? this.#compactAt : Math.max(this.#compactAt, this.#share * snapshotFile.bytes);
    return journal.bytes >= threshold;
  }

  async compact(snapshot: SandboxSnapshot): Promise<void> {
    const { journal } = this.#open();
    const sealed = journal.seal();
    try {
      await this.#writeData(snapshot);
      await journal.removeThrough(sealed);
      this.#compactAt = this.#compactAtBytes;
    } catch (error) {
      this.#compactAt = journal.bytes + this.#compactAtBytes;
      throw error;
    }
  }

  damaged(error: SnapshotError): Error {
    const file = this.#opened?.file ?? this.#path;
    return new DataFileError(
      file,
      `the data file ${file} is damaged: cannot restore the snapshot: ${error.reason}; move the data file and its journal files away to start afresh`,
      { cause: error },
    );
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    await opened?.journal.close();
    await opened?.lock.release();
  }

  #open(): Opened {
    if (this.#opened === undefined) throw new Error(packageMessage('the data file is not open: open() it first'));
    return this.#opened;
  }

  async #writeData(snapshot: SandboxSnapshot): Promise<void> {
    const { database } = this.#open();
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

/**
 * The real path of a data file, through every symbolic link: to the file, or, when it does not
 * exist yet, to where a link to it points, or to its folder.
 */
async function realFile(file: string, links = 0): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    // A link to a file not yet written: follow it by hand (within the system's own depth), from
    // the real folder of the link, as the system does (`..` leaves the real folder, not the link's).
    const target = links < 40 ? await readlink(file).catch(() => undefined) : undefined;
    if (target !== undefined) {
      const folder = await realpath(dirname(file)).catch(() => dirname(file));
      return realFile(resolve(folder, target), links + 1);
    }
    return realpath(dirname(file)).then(
      (folder) => join(folder, basename(file)),
      () => file,
    );
  }
}
