import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataFileError, type FileSystem, PRIVATE_FILE_MODE } from './data-file';
import { unwritableFolderReason } from './unwritable-folder';

// The lock of a data file (`NAME.lock` beside it): one sandbox per data file. Two processes on
// one file would give out the same ids and record numbers and each lose the other's writes. The
// lock also remembers the journal segment being written, so that a start after a crash notices
// when that segment is gone.
//
// Whether the sandbox a lock names still runs is asked of the system where it can answer: a
// process of this machine's own PID namespace, by its id. A sandbox of another PID namespace of
// this machine (another container sharing the folder, or this very container before a restart,
// its sandbox PID 1 again) cannot be seen from here, so every sandbox renews its lock's
// modification time each second, and such a lock left unrenewed for 5 s names a sandbox that is
// gone (killed with its container). A lock of another machine counts as held: nothing there can
// be asked.

/** The journal segment a sandbox was writing: its number and the version its first line starts from. */
export interface LockedSegment {
  readonly number: number;
  readonly base: number;
}

/**
 * The process that holds a lock: its id, the machine's name, and, where the system tells them
 * (Linux), the id of the machine's current boot and of the process's PID namespace.
 */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly boot?: string | undefined;
  readonly pid_namespace?: string | undefined;
}

/** What a lock file holds. */
interface LockRecord extends LockHolder {
  readonly started_at: string;
  readonly segment?: LockedSegment | undefined;
}

/** How a lock reads the time, waits and repeats its renewal: the system's, unless a test gives its own. */
export interface LockClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Runs `action` every `ms` until the returned function is called, without keeping the process alive. */
  repeat(ms: number, action: () => void): () => void;
}

/** How often a sandbox renews its lock's modification time. */
export const LOCK_RENEW_MS = 1_000;
/** How long a lock of another PID namespace of this machine may go unrenewed before it counts as left. */
export const LOCK_STALE_MS = 5_000;

const systemClock: LockClock = {
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
  repeat(ms, action) {
    const timer = setInterval(action, ms).unref();
    return () => clearInterval(timer);
  },
};

/**
 * The locks this process holds, by path: a lock naming this process's own id is its own only
 * when listed here; otherwise an earlier process of the same id left it (a container's PID 1
 * before a restart).
 */
const heldHere = new Set<string>();

/**
 * The lock of a data file, held by this process: {@link DataFileLock.acquire} takes it (or a
 * lock left by a process that is gone), {@link DataFileLock.release} gives it up.
 */
export class DataFileLock {
  readonly #path: string;
  readonly #files: FileSystem;
  readonly #record: LockRecord;
  readonly #stopRenewing: () => void;
  /** The segment the previous holder was writing when it stopped without releasing the lock. */
  readonly abandoned: LockedSegment | undefined;

  private constructor(
    path: string,
    files: FileSystem,
    record: LockRecord,
    abandoned: LockedSegment | undefined,
    clock: LockClock,
  ) {
    this.#path = path;
    this.#files = files;
    this.#record = record;
    this.abandoned = abandoned;
    // A renewal that fails (a read-only or vanished folder) is tried again at the next one.
    this.#stopRenewing = clock.repeat(LOCK_RENEW_MS, () => {
      const now = new Date(clock.now());
      files.utimes(path, now, now).catch(() => undefined);
    });
  }

  /**
   * Takes the lock of `dataFile`. A folder it cannot write in (read-only, or not this user's)
   * refuses with a {@link DataFileError} saying so, before any lock there is looked at. A lock
   * held by a running process (of this machine, or of another that shares the folder) refuses
   * naming the file and the process; one whose process is gone is taken over. A lock of another
   * PID namespace of this machine is watched until it is renewed (held) or has gone
   * {@link LOCK_STALE_MS} unrenewed (gone). `holder` and `clock` are this process and the
   * system's time unless a test gives them.
   */
  static async acquire(
    dataFile: string,
    files: FileSystem,
    { holder = thisProcess(), clock = systemClock }: { holder?: LockHolder; clock?: LockClock } = {},
  ): Promise<DataFileLock> {
    const path = `${dataFile}.lock`;
    const record: LockRecord = { ...holder, started_at: new Date(clock.now()).toISOString() };
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
        const running = await isHeld(path, held, holder, files, clock);
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
    heldHere.add(path);
    return new DataFileLock(path, files, record, held?.segment, clock);
  }

  /** Records the journal segment being written, replacing the lock file whole. */
  async record(segment: LockedSegment): Promise<void> {
    const temporary = `${this.#path}.tmp`;
    await this.#files.writeFile(temporary, `${JSON.stringify({ ...this.#record, segment })}\n`, {
      mode: PRIVATE_FILE_MODE,
    });
    await this.#files.rename(temporary, this.#path);
  }

  /**
   * Gives the lock up: another sandbox may open the data file. A lock that another sandbox has
   * taken over meanwhile (this one having been paused past {@link LOCK_STALE_MS}) is left to it.
   */
  async release(): Promise<void> {
    this.#stopRenewing();
    heldHere.delete(this.#path);
    const current = await readLock(this.#path, this.#files).catch(() => undefined);
    if (current !== undefined && !sameHolder(current, this.#record)) return;
    await this.#files.rm(this.#path, { force: true });
  }
}

/** This process, as its lock names it. */
function thisProcess(): LockHolder {
  return {
    pid: process.pid,
    host: hostname(),
    boot: fromSystem(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    pid_namespace: fromSystem(() => readlinkSync('/proc/self/ns/pid')),
  };
}

/** What `read` reads of the system; `undefined` where it cannot be read (not Linux, no /proc). */
function fromSystem(read: () => string): string | undefined {
  try {
    return read() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the sandbox that `held` names still holds its lock, as far as `self` can tell: of
 * another boot, held when of another machine (left when this machine has restarted since); of
 * the same boot, by its process id in the same PID namespace (this process's own id counting
 * only for a lock it took itself), or by the lock's renewal in another PID namespace. Where the
 * system gives no boot id, held when of another machine or when its process id runs.
 */
async function isHeld(
  path: string,
  held: LockRecord,
  self: LockHolder,
  files: FileSystem,
  clock: LockClock,
): Promise<boolean> {
  if (held.boot === undefined || self.boot === undefined) return held.host !== self.host || isRunning(held.pid);
  if (held.boot !== self.boot) return held.host !== self.host;
  if (held.pid_namespace !== undefined && held.pid_namespace === self.pid_namespace) {
    return held.pid === self.pid ? heldHere.has(path) : isRunning(held.pid);
  }
  return isRenewed(path, files, clock);
}

/**
 * Watches the lock at `path` until its modification time moves (its sandbox renews it: held)
 * or it has gone {@link LOCK_STALE_MS} unrenewed (left). Of the same boot, the lock's time and
 * this process's come from one clock. A lock given up meanwhile is left too.
 */
async function isRenewed(path: string, files: FileSystem, clock: LockClock): Promise<boolean> {
  let first: number | undefined;
  for (;;) {
    let modified: number;
    try {
      modified = (await files.stat(path)).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    first ??= modified;
    if (modified !== first) return true;
    const age = clock.now() - modified;
    if (age > LOCK_STALE_MS) return false;
    await clock.sleep(Math.min(LOCK_RENEW_MS / 4, LOCK_STALE_MS - age + 1));
  }
}

/** Whether two lock records name the same holder's same start. */
function sameHolder(a: LockRecord, b: LockRecord): boolean {
  return a.pid === b.pid && a.host === b.host && a.started_at === b.started_at;
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
  if (sameHolder(moved, held)) {
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
    const record = JSON.parse(text) as Partial<Record<keyof LockRecord, unknown>>;
    if (typeof record.pid === 'number' && typeof record.host === 'string') {
      return {
        ...(record as LockRecord),
        boot: typeof record.boot === 'string' ? record.boot : undefined,
        pid_namespace: typeof record.pid_namespace === 'string' ? record.pid_namespace : undefined,
      };
    }
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
