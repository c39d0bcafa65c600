import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  CORE_COLLECTIONS,
  ChangeReplay,
  type CoreChangeSet,
  type SandboxSnapshot,
  type Sequences,
} from '@boundbook/sandbox-core';
import { DataFileError, readLines, writeFully } from './data-file';

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
 * start: it opens a new one, numbered after every existing one, at its first append, so the
 * torn last line a crash may leave always stays the last line of its segment. After an append
 * fails, the next one starts a new segment too. {@link Journal.seal} ends the current segment,
 * and {@link Journal.removeThrough} deletes the segments a written snapshot holds.
 *
 * Appends are not synced to the disk: they survive the process being killed, not a power cut.
 * The caller runs one append at a time.
 */
export class Journal {
  readonly #dataFile: string;
  readonly #segments: JournalSegment[];
  #next: number;
  #current: { number: number; handle: Promise<FileHandle>; bytes: number } | undefined;
  /** Settles once the last sealed segment's file is closed. */
  #closed: Promise<void> = Promise.resolve();

  private constructor(dataFile: string, segments: JournalSegment[]) {
    this.#dataFile = dataFile;
    this.#segments = segments;
    this.#next = (segments.at(-1)?.number ?? 0) + 1;
  }

  /** The journal of `dataFile`, with the segments already beside it. */
  static async open(dataFile: string): Promise<Journal> {
    try {
      return new Journal(dataFile, await listSegments(dataFile));
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

  /** Appends `line` (one or more whole lines) to the current segment, starting one if needed. */
  async append(line: Buffer): Promise<void> {
    const current = (this.#current ??= this.#start());
    try {
      await writeFully(await current.handle, line);
      current.bytes += line.length;
    } catch (error) {
      // What was written of the line stays as the torn end of this segment.
      this.seal();
      throw new DataFileError(
        this.#dataFile,
        `cannot append to the journal ${segmentPath(this.#dataFile, current.number)} (${error instanceof Error ? error.message : String(error)}): check the free space and the permissions of its folder`,
        { cause: error },
      );
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
    this.#closed = current.handle.then((handle) => handle.close()).catch(() => undefined);
    return current.number;
  }

  /** Deletes the sealed segments numbered up to `number`, oldest first. */
  async removeThrough(number: number): Promise<void> {
    while (this.#segments[0] !== undefined && this.#segments[0].number <= number) {
      const segment = this.#segments[0];
      await rm(segment.path, { force: true });
      this.#segments.shift();
    }
  }

  /** Seals the current segment and waits until its file is closed. */
  async close(): Promise<void> {
    this.seal();
    await this.#closed;
  }

  #start(): { number: number; handle: Promise<FileHandle>; bytes: number } {
    const number = this.#next;
    this.#next += 1;
    const handle = open(segmentPath(this.#dataFile, number), 'a');
    // A failed open is reported by the append that awaits it.
    handle.catch(() => undefined);
    return { number, handle, bytes: 0 };
  }
}

function segmentPath(dataFile: string, number: number): string {
  return `${dataFile}.journal.${number}`;
}

/** The journal segments beside `dataFile`, by ascending number; none when its folder is missing. */
async function listSegments(dataFile: string): Promise<JournalSegment[]> {
  const folder = dirname(dataFile);
  const prefix = `${basename(dataFile)}.journal.`;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const segments: JournalSegment[] = [];
  for (const name of names) {
    const suffix = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    if (!/^[1-9]\d{0,14}$/.test(suffix)) continue;
    const path = join(folder, name);
    segments.push({ number: Number(suffix), path, bytes: (await stat(path)).size });
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
 * A line of a journal segment that is not a change set although more lines follow it, so it
 * cannot be the trace of an append cut short by a crash.
 */
export class CorruptJournalLine extends Error {
  override readonly name = 'CorruptJournalLine';
  /** Line number, from 1. */
  readonly line: number;

  constructor(line: number, options?: ErrorOptions) {
    super(`line ${line} is not a change set, and lines follow it`, options);
    this.line = line;
  }
}

/** What reading a segment found besides its change sets. */
export interface SegmentEnd {
  /** Whether the last line was cut short or unreadable, and so ignored. */
  readonly tornTail: boolean;
}

/**
 * Reads one journal segment line by line and hands each change set to `onChangeSet` with its
 * line number. A last line without its newline, or that does not parse, is the trace of an
 * append cut short by a crash: it was never acknowledged, so it is ignored. An unreadable line
 * anywhere else throws a {@link CorruptJournalLine}. Whatever `onChangeSet` throws stops the
 * reading and rejects the promise.
 */
export async function readJournalSegment(
  path: string,
  onChangeSet: (changeSet: CoreChangeSet, line: number) => void,
): Promise<SegmentEnd> {
  let line = 0;
  let unreadable: { line: number; cause: unknown } | undefined;
  let torn = false;
  await readLines(path, (text, terminated) => {
    line += 1;
    if (unreadable !== undefined) throw new CorruptJournalLine(unreadable.line, { cause: unreadable.cause });
    if (!terminated) {
      torn = true;
      return;
    }
    let changeSet: CoreChangeSet;
    try {
      changeSet = parseJournalLine(text);
    } catch (cause) {
      unreadable = { line, cause };
      return;
    }
    onChangeSet(changeSet, line);
  });
  return { tornTail: torn || unreadable !== undefined };
}

/**
 * The snapshot of the data file brought up to date with its journal: every segment, in order,
 * each change set applied once (those the snapshot already holds are skipped, see
 * `ChangeReplay`), the torn last line of a segment ignored. Answers `snapshot` itself when no
 * change set applies. A damaged line, or a change set that does not follow the state before it
 * (the data file replaced without its journal, say), throws a {@link DataFileError}.
 */
export async function replayJournal(
  journal: Journal,
  snapshot: SandboxSnapshot | null,
): Promise<SandboxSnapshot | null> {
  const { dataFile, segments } = journal;
  const replay = new ChangeReplay(snapshot ?? undefined);
  let applied = 0;
  for (const segment of segments) {
    try {
      await readJournalSegment(segment.path, (changeSet, line) => {
        if (changeSet.base > replay.version) {
          throw new DataFileError(
            dataFile,
            `line ${line} of the journal ${segment.path} continues from version ${changeSet.base}, but the data file and the journal before it reach version ${replay.version}: changes are missing, as when the data file is replaced without its journal; ${START_AFRESH}`,
          );
        }
        if (replay.apply(changeSet)) applied += 1;
      });
    } catch (error) {
      if (error instanceof DataFileError) throw error;
      const problem =
        error instanceof CorruptJournalLine
          ? `line ${error.line} of the journal ${segment.path} is damaged`
          : `cannot read the journal ${segment.path} (${error instanceof Error ? error.message : String(error)})`;
      throw new DataFileError(dataFile, `${problem}: ${START_AFRESH}`, { cause: error });
    }
  }
  return applied === 0 ? snapshot : replay.snapshot();
}
