import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { DataFileError, type FileSystem, PRIVATE_FILE_MODE } from './data-file';
import { unwritableFolderReason } from './unwritable-folder';

// The lock of a data file (`NAME.lock` beside it): one sandbox per data file. Two processes on
// one file would give out the same ids and record numbers and each lose the other's writes. The
// lock also remembers the journal segment being written, so that a start after a crash notices
// when that segment is gone.

/** The journal segment a sandbox was writing: its number and the version its first line starts from. */
export interface LockedSegment {
  readonly number: number;
  readonly base: number;
}

/** What a lock file holds. */
interface LockRecord {
  readonly pid: number;
  readonly host: string;
  readonly started_at: string;
  readonly segment?: LockedSegment | undefined;
}

/**
 * The lock of a data file, held by this process: {@link DataFileLock.acquire} takes it (or a
 * lock left by a process that is gone), {@link DataFileLock.release} gives it up.
 */
export class DataFileLock {
  readonly #path: string;
  readonly #files: FileSystem;
  readonly #record: LockRecord;
  /** The segment the previous holder was writing when it stopped without releasing the lock. */
  readonly abandoned: LockedSegment | undefined;

  private constructor(path: string, files: FileSystem, record: LockRecord, abandoned: LockedSegment | undefined) {
    this.#path = path;
    this.#files = files;
    this.#record = record;
    this.abandoned = abandoned;
  }

  /**
   * Takes the lock of `dataFile`. A folder it cannot write in (read-only, or not this user's)
   * refuses with a {@link DataFileError} saying so, before any lock there is looked at. A lock
   * held by a running process (of this machine, or of another that shares the folder) refuses
   * naming the file and the process; one whose process is gone is taken over.
   */
  static async acquire(dataFile: string, files: FileSystem, now: Date = new Date()): Promise<DataFileLock> {
    const path = `${dataFile}.lock`;
    const record: LockRecord = { pid: process.pid, host: hostname(), started_at: now.toISOString() };
    // The lock's text is written beside it first: that write also tells whether the folder can
    // be written at all, which must be said before any process a stale lock names is blamed.
    const written = `${path}.${process.pid}.new`;
    try {
      await files.writeFile(written, `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
    } catch (error) {
      throw lockFailure(dataFile, path, error);
    }
    let held: LockRecord | undefined;
    try {
      held = await readLock(path, files);
      if (held !== undefined) {
        const running = held.host !== record.host || isRunning(held.pid);
        if (running) {
          throw new DataFileError(
            dataFile,
            `the data file ${dataFile} is in use by another sandbox: process ${held.pid} on ${held.host}, started at ${held.started_at}, holds ${path}. Stop that sandbox first, or give this one another data file (--data); if no sandbox runs on it, delete ${path}.`,
          );
        }
        await takeOver(path, held, files, dataFile);
      }
      await linkInPlace(written, path, files);
    } catch (error) {
      throw error instanceof DataFileError ? error : lockFailure(dataFile, path, error);
    } finally {
      await files.rm(written, { force: true });
    }
    return new DataFileLock(path, files, record, held?.segment);
  }

  /** Records the journal segment being written, replacing the lock file whole. */
  async record(segment: LockedSegment): Promise<void> {
    const temporary = `${this.#path}.tmp`;
    await this.#files.writeFile(temporary, `${JSON.stringify({ ...this.#record, segment })}\n`, {
      mode: PRIVATE_FILE_MODE,
    });
    await this.#files.rename(temporary, this.#path);
  }

  /** Gives the lock up: another sandbox may open the data file. */
  async release(): Promise<void> {
    await this.#files.rm(this.#path, { force: true });
  }
}

/** Why the lock could not be taken: another sandbox at the same moment, a folder it cannot write, or else. */
function lockFailure(dataFile: string, path: string, error: unknown): DataFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EEXIST'
      ? `another sandbox took ${path} at the same moment: start one sandbox per data file`
      : (unwritableFolderReason(dataFile, dirname(path), error) ??
        `cannot write ${path} (${error instanceof Error ? error.message : String(error)}): check the permissions of its folder`);
  return new DataFileError(dataFile, reason, { cause: error });
}

/**
 * Puts the lock file's text, written beside it, in place in one step, failing with EEXIST when
 * it exists: linked, so that no other sandbox ever reads it empty (an empty lock names no
 * process, which counts as gone). A file system without hard links gets an exclusive create,
 * then the text.
 */
async function linkInPlace(written: string, path: string, files: FileSystem): Promise<void> {
  try {
    await files.link(written, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    await files.writeFile(path, await files.readFile(written, 'utf8'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  }
}

/**
 * Takes away the lock `held` of a process that is gone. It is moved aside under a name of this
 * process's own, which only one process can do to one file: of two sandboxes taking over one
 * stale lock at once, the second finds nothing to move, or moves the first one's new lock, sees
 * it and puts it back, then refuses, as a plain delete could not tell.
 */
async function takeOver(path: string, held: LockRecord, files: FileSystem, dataFile: string): Promise<void> {
  const aside = `${path}.${process.pid}.stale`;
  try {
    await files.rename(path, aside);
  } catch (error) {
    // Gone already: another sandbox moved it first, and the exclusive write that follows tells.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const text = await files.readFile(aside, 'utf8').catch(() => '');
  const moved = parseLock(text);
  if (moved.pid === held.pid && moved.host === held.host && moved.started_at === held.started_at) {
    await files.rm(aside, { force: true });
    return;
  }
  // Another sandbox's new lock: it goes back where it was, whole.
  await files.rename(aside, path);
  throw new DataFileError(
    dataFile,
    `another sandbox (process ${moved.pid} on ${moved.host}) took ${path} at the same moment: start one sandbox per data file`,
  );
}

/** The lock record at `path`; `undefined` when there is none (see {@link parseLock} for one that is unreadable). */
async function readLock(path: string, files: FileSystem): Promise<LockRecord | undefined> {
  let text: string;
  try {
    text = await files.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseLock(text);
}

/** A lock file's record; one that cannot be read names no process, which counts as gone. */
function parseLock(text: string): LockRecord {
  try {
    const record = JSON.parse(text) as Partial<LockRecord>;
    if (typeof record.pid === 'number' && typeof record.host === 'string') return record as LockRecord;
  } catch {
    // Unreadable: its process cannot be named, so it is treated as gone.
  }
  return { pid: 0, host: hostname(), started_at: 'an unknown time' };
}

/** Whether a process of this machine runs under `pid` (one of another user counts as running). */
function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
