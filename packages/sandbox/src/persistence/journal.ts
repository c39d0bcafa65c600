import { open, rm, type FileHandle } from 'node:fs/promises';
import { DataFileError } from './data-file-error';
import { journalSegmentPath, listJournalSegments, type JournalSegment } from './journal-segment';
import { writeFully } from './write-fully';

/**
 * The append-only journal beside a data file: JSON Lines in numbered segments
 * (`NAME.journal.N`), one line per commit. A journal never appends to a segment it did not
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
      return new Journal(dataFile, await listJournalSegments(dataFile));
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
    const path = journalSegmentPath(this.#dataFile, current.number);
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
        `cannot append to the journal ${journalSegmentPath(this.#dataFile, current.number)} (${error instanceof Error ? error.message : String(error)}): check the free space and the permissions of its folder`,
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
      path: journalSegmentPath(this.#dataFile, current.number),
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
    const handle = open(journalSegmentPath(this.#dataFile, number), 'a');
    // A failed open is reported by the append that awaits it.
    handle.catch(() => undefined);
    return { number, handle, bytes: 0 };
  }
}
