import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CoreChangeSet, SandboxSnapshot, Sequences } from '@fflkit/sandbox-core';
import { CORE_COLLECTIONS, ChangeReplay } from '@fflkit/sandbox-core/persistence';
import {
  DataFileError,
  type FileSystem,
  nodeFileSystem,
  readLines,
  syncFolder,
  writeFully,
  writeNewFile,
} from './data-file';
import type { DataFileLock, LockedSegment } from './lock';
import { packageMessage } from '../support/errors';

// The journal: the changes made since the data file was written, appended as JSON Lines to
// numbered segments beside it (`NAME.journal.N`), one line per commit. Here are its segments,
// the encoding and parsing of a line, the reading of a segment, and the replay that brings a
// data file up to date at start.
//
// Performance: a commit appends one line, the size of what changed, instead of rewriting the
// data file, which is what lets a POST at 100k or 1M receipts be saved before its answer within
// the write benchmarks' p99. Compaction (see persister.ts) relies on two things here: a segment
// is never appended to once sealed, so the data file written from a snapshot taken at the seal
// holds every line of the segments up to it; and replay skips the change sets a data file
// already holds (`ChangeReplay`), so a crash between the rename of the data file and the
// deletion of the sealed segments loses and repeats nothing.

/** Tells the user how to get going again when the journal cannot be replayed. */
const START_AFRESH = 'move the data file and its journal files away to start afresh';

/** One file of the journal: `NAME.journal.N` beside the data file `NAME`. */
export interface JournalSegment {
  /** Its place in the journal: segments are replayed by ascending number. */
  readonly number: number;
  readonly path: string;
  /** Its size in bytes when it was listed. */
  readonly bytes: number;
}

/**
 * The append-only journal beside a data file. A journal never appends to a segment it did not
 * start: it starts a new one, numbered after every existing one, at its first append, by writing
 * that first line to a temporary file renamed into place, so that no segment is ever empty. The
 * lock of the data file records each segment started, so that a start after a crash can tell a
 * lost segment from one never written. An append that fails is taken back (the segment is cut
 * back to its size before, or removed when it was new), so the journal holds exactly the
 * changes acknowledged; should that fail too, the segment is sealed with the cut line as its
 * torn end, which a reader skips. {@link Journal.seal} ends the current segment, and
 * {@link Journal.removeThrough} deletes the segments a written snapshot holds.
 *
 * With `flush` (the default), an append resolves only once its line is on the disk
 * (`fdatasync`), and a new segment's name with it, so that what is acknowledged survives the
 * machine stopping; without, appends survive the process being killed, not a power cut. The
 * caller runs one append at a time.
 */
export class Journal {
  readonly #dataFile: string;
  readonly #segments: JournalSegment[];
  readonly #files: FileSystem;
  readonly #lock: DataFileLock | undefined;
  readonly #flush: boolean;
  #next: number;
  #current: { number: number; handle: FileHandle; bytes: number } | undefined;
  /** Settles once the last sealed segment's file is closed. */
  #closed: Promise<void> = Promise.resolve();

  private constructor(
    dataFile: string,
    segments: JournalSegment[],
    files: FileSystem,
    lock: DataFileLock | undefined,
    flush: boolean,
  ) {
    this.#dataFile = dataFile;
    this.#segments = segments;
    this.#files = files;
    this.#lock = lock;
    this.#flush = flush;
    this.#next = Math.max(segments.at(-1)?.number ?? 0, lock?.abandoned?.number ?? 0) + 1;
  }

  /** The journal of `dataFile`, with the segments already beside it; `flush` as the class says. */
  static async open(
    dataFile: string,
    files: FileSystem = nodeFileSystem,
    lock?: DataFileLock,
    flush = true,
  ): Promise<Journal> {
    try {
      return new Journal(dataFile, await listSegments(dataFile, files, lock !== undefined), files, lock, flush);
    } catch (error) {
      throw new DataFileError(dataFile, `cannot list the journal of the data file ${dataFile} (${String(error)})`, {
        cause: error,
      });
    }
  }

  /** Path of the data file whose journal this is. */
  get dataFile(): string {
    return this.#dataFile;
  }

  /** The segments on disk, by ascending number, the one being appended to included. */
  get segments(): readonly JournalSegment[] {
    const current = this.#current;
    if (current === undefined) return [...this.#segments];
    const path = segmentPath(this.#dataFile, current.number);
    return [...this.#segments, { number: current.number, path, bytes: current.bytes }];
  }

  /** Bytes in every segment on disk. */
  get bytes(): number {
    let bytes = this.#current?.bytes ?? 0;
    for (const segment of this.#segments) bytes += segment.bytes;
    return bytes;
  }

  /**
   * Appends `line` (one or more whole lines, the first of them starting from version `base`)
   * to the current segment, starting one if needed. On failure nothing of it stays.
   */
  async append(line: Buffer, base: number): Promise<void> {
    if (this.#current === undefined) {
      await this.#start(line, { number: this.#next, base });
      return;
    }
    const current = this.#current;
    try {
      await writeFully(current.handle, line);
      if (this.#flush) await current.handle.datasync();
      current.bytes += line.length;
    } catch (error) {
      await current.handle.truncate(current.bytes).catch(() => this.seal());
      throw this.#appendError(current.number, error);
    }
  }

  /**
   * Ends the current segment: the next append starts a new one. Answers the number of the last
   * segment that holds appended lines (0 when there is none).
   */
  seal(): number {
    const current = this.#current;
    if (current === undefined) return this.#segments.at(-1)?.number ?? 0;
    this.#current = undefined;
    this.#segments.push({
      number: current.number,
      path: segmentPath(this.#dataFile, current.number),
      bytes: current.bytes,
    });
    this.#closed = current.handle.close().catch(() => undefined);
    return current.number;
  }

  /** Deletes the sealed segments numbered up to `number`, oldest first. */
  async removeThrough(number: number): Promise<void> {
    while (this.#segments[0] !== undefined && this.#segments[0].number <= number) {
      const segment = this.#segments[0];
      await this.#files.rm(segment.path, { force: true });
      this.#segments.shift();
    }
  }

  /** Seals the current segment and waits until its file is closed. */
  async close(): Promise<void> {
    this.seal();
    await this.#closed;
  }

  /** Starts a segment whose first line is `line`: never on disk empty, and recorded in the lock. */
  async #start(line: Buffer, segment: LockedSegment): Promise<void> {
    const path = segmentPath(this.#dataFile, segment.number);
    const temporary = `${path}.tmp`;
    let handle: FileHandle;
    try {
      await writeNewFile(temporary, line, this.#files, this.#flush);
      await this.#files.rename(temporary, path);
      await this.#lock?.record(segment);
      // One flush of the folder keeps both names: the segment's and the lock's that records it.
      if (this.#flush) await syncFolder(dirname(path), this.#files);
      handle = await this.#files.open(path, 'a');
    } catch (error) {
      // The segment holds this line alone, which is not acknowledged: nothing of it may stay.
      // The next append starts the segment after, whatever is left at this one's path.
      await this.#files.rm(temporary, { force: true }).catch(() => undefined);
      await this.#files.rm(path, { force: true }).catch(() => undefined);
      this.#next = segment.number + 1;
      throw this.#appendError(segment.number, error);
    }
    this.#next = segment.number + 1;
    this.#current = { number: segment.number, handle, bytes: line.length };
  }

  #appendError(number: number, error: unknown): DataFileError {
    return new DataFileError(
      this.#dataFile,
      `cannot append to the journal ${segmentPath(this.#dataFile, number)} (${error instanceof Error ? error.message : String(error)}): check that its folder still exists, has free space and can be written`,
      { cause: error },
    );
  }
}

function segmentPath(dataFile: string, number: number): string {
  return `${dataFile}.journal.${number}`;
}

/**
 * The journal segments beside `dataFile`, by ascending number; none when its folder is missing.
 * The `owned` journal of a sandbox that holds the lock also deletes what a crash left of a new
 * segment.
 */
async function listSegments(dataFile: string, files: FileSystem, owned: boolean): Promise<JournalSegment[]> {
  const folder = dirname(dataFile);
  const prefix = `${basename(dataFile)}.journal.`;
  let names: string[];
  try {
    names = await files.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const segments: JournalSegment[] = [];
  for (const name of names) {
    const suffix = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    // A segment's first line, written before a crash and never renamed into place, was never
    // acknowledged; the journal's owner (it holds the lock) deletes it.
    if (owned && /^[1-9]\d{0,14}\.tmp$/.test(suffix)) await files.rm(join(folder, name), { force: true });
    if (!/^[1-9]\d{0,14}$/.test(suffix)) continue;
    const path = join(folder, name);
    segments.push({ number: Number(suffix), path, bytes: (await files.stat(path)).size });
  }
  return segments.sort((a, b) => a.number - b.number);
}

/**
 * One line of the journal for a change set: `{"v","base","sequences","changes"}` and a newline,
 * as UTF-8 bytes to append with one write. `JSON.stringify` escapes every newline inside
 * strings, so the only newline is the last byte: a line cut short by a crash has none, which is
 * how {@link readJournalSegment} recognises it.
 */
export function encodeJournalLine(changeSet: CoreChangeSet): Buffer {
  const { version, base, sequences, changes } = changeSet;
  return Buffer.from(`${JSON.stringify({ v: version, base, sequences, changes })}\n`);
}

const COLLECTIONS: ReadonlySet<unknown> = new Set(CORE_COLLECTIONS);

/**
 * The change set of one journal line (without its newline), as {@link encodeJournalLine} wrote
 * it. Throws the `SyntaxError` of `JSON.parse` for text that is not JSON, and a `TypeError`
 * for JSON that is not a change set. The records themselves are taken as they are.
 */
export function parseJournalLine(text: string): CoreChangeSet {
  const line = JSON.parse(text) as Record<string, unknown> | null;
  if (typeof line !== 'object' || line === null) throw new TypeError('a journal line is an object');
  const { v: version, base, sequences, changes } = line;
  if (!Number.isSafeInteger(version) || !Number.isSafeInteger(base) || (base as number) > (version as number)) {
    throw new TypeError('a journal line has whole numbers v and base, base not above v');
  }
  if (typeof sequences !== 'object' || sequences === null || !Array.isArray(changes)) {
    throw new TypeError('a journal line has sequences and a list of changes');
  }
  for (const change of changes as Record<string, unknown>[]) {
    const known =
      typeof change === 'object' &&
      change !== null &&
      COLLECTIONS.has(change['collection']) &&
      (change['op'] === 'remove' ? 'id' in change : change['op'] === 'upsert' && isRecord(change['record']));
    if (!known) throw new TypeError(`a journal line holds an unknown change: ${JSON.stringify(change).slice(0, 200)}`);
  }
  return {
    version: version as number,
    base: base as number,
    sequences: sequences as Sequences,
    changes: changes as CoreChangeSet['changes'],
  };
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value;
}

/**
 * A segment that no crash can explain: changes acknowledged once are gone or unreadable.
 * `reason` says what is wrong with it, for the {@link DataFileError} that names the data file.
 */
export class DamagedSegmentError extends Error {
  override readonly name = 'DamagedSegmentError';
  /** What is wrong with the segment, without the package's name. */
  readonly reason: string;

  constructor(reason: string, options?: ErrorOptions) {
    super(packageMessage(`a journal segment is damaged: ${reason}`), options);
    this.reason = reason;
  }
}

// How every journal line starts: an append cut short by a crash leaves a prefix of it.
const LINE_START = '{"v":';

/**
 * Reads one journal segment line by line and hands each change set to `onChangeSet` with its
 * line number. A last line without its newline that begins as a journal line does is the trace
 * of an append cut short by a crash: it was never acknowledged, so it is ignored. Anything else
 * that is not a change set (an empty segment, a line that does not parse, bytes overwritten
 * with NULs) throws a {@link DamagedSegmentError}. Whatever `onChangeSet` throws stops the reading
 * and rejects the promise.
 */
export async function readJournalSegment(
  path: string,
  onChangeSet: (changeSet: CoreChangeSet, line: number) => void,
  files: FileSystem = nodeFileSystem,
): Promise<SegmentEnd> {
  let line = 0;
  let torn = false;
  await readLines(path, files, (text, terminated) => {
    line += 1;
    if (!terminated) {
      if (!isTornLine(text))
        throw new DamagedSegmentError(
          `its last ${text.length} characters are not the start of a change set${text.includes('\0') ? ' (they hold NUL bytes)' : ''}`,
        );
      torn = true;
      return;
    }
    let changeSet: CoreChangeSet;
    try {
      changeSet = parseJournalLine(text);
    } catch (cause) {
      throw new DamagedSegmentError(`line ${line} is not a change set`, { cause });
    }
    onChangeSet(changeSet, line);
  });
  if (line === 0)
    throw new DamagedSegmentError('it is empty, although a segment is never written without a change set');
  if (torn && line === 1)
    throw new DamagedSegmentError('it holds no whole change set, although a segment is written with one');
  return { tornTail: torn };
}

/** Whether an unterminated last line can be an append cut short: a prefix of a journal line. */
function isTornLine(text: string): boolean {
  if (text.includes('\0')) return false;
  return text.length < LINE_START.length ? LINE_START.startsWith(text) : text.startsWith(LINE_START);
}

/** What reading a segment found besides its change sets. */
export interface SegmentEnd {
  /** Whether the last line was cut short, and so ignored. */
  readonly tornTail: boolean;
}

/**
 * The snapshot of the data file brought up to date with its journal: every segment, in order,
 * each change set applied once (those the snapshot already holds are skipped, see
 * `ChangeReplay`), the torn last line of a segment ignored. Answers `snapshot` itself when no
 * change set applies. A damaged segment, a change set that does not follow the state before it
 * (a segment missing, or the data file replaced without its journal), or the segment that the
 * previous sandbox was writing when it stopped without releasing its lock gone while the data
 * file does not hold its changes, throws a {@link DataFileError} naming the file.
 */
export async function replayJournal(
  journal: Journal,
  snapshot: SandboxSnapshot | null,
  abandoned?: LockedSegment,
  files: FileSystem = nodeFileSystem,
): Promise<SandboxSnapshot | null> {
  const { dataFile, segments } = journal;
  const startVersion = typeof snapshot?.['version'] === 'number' ? snapshot['version'] : 0;
  if (
    abandoned !== undefined &&
    !segments.some((segment) => segment.number === abandoned.number) &&
    startVersion <= abandoned.base
  ) {
    throw new DataFileError(
      dataFile,
      `the journal ${segmentPath(dataFile, abandoned.number)} is missing: the sandbox that last used the data file ${dataFile} was writing it when it stopped, and the data file does not hold its changes (it reaches version ${startVersion}, the segment starts from ${abandoned.base}). Restore that file from a backup, or ${START_AFRESH}`,
    );
  }
  const replay = new ChangeReplay(snapshot ?? undefined);
  let applied = 0;
  for (const segment of segments) {
    try {
      await readJournalSegment(
        segment.path,
        (changeSet, line) => {
          if (changeSet.base > replay.version) {
            throw new DataFileError(
              dataFile,
              `line ${line} of the journal ${segment.path} continues from version ${changeSet.base}, but the data file and the journal before it reach version ${replay.version}: changes are missing, as when a journal file is deleted or the data file is replaced without its journal; ${START_AFRESH}`,
            );
          }
          if (replay.apply(changeSet)) applied += 1;
        },
        files,
      );
    } catch (error) {
      if (error instanceof DataFileError) throw error;
      const problem =
        error instanceof DamagedSegmentError
          ? `the journal ${segment.path} is damaged: ${error.reason}`
          : `cannot read the journal ${segment.path} (${error instanceof Error ? error.message : String(error)})`;
      throw new DataFileError(dataFile, `${problem}; ${START_AFRESH}`, { cause: error });
    }
  }
  return applied === 0 ? snapshot : replay.snapshot();
}
