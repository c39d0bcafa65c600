import * as nodeFs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SandboxSnapshot } from '@fflkit/sandbox-core';
import {
  createSnapshotReviver,
  createSnapshotStringifier,
  type SnapshotReviver,
} from '@fflkit/sandbox-core/persistence';
import { Low, type Adapter } from 'lowdb';
import { packageMessage } from '../support/errors';
import { unwritableParentReason } from './unwritable-folder';

// The data file: one JSON document holding the snapshot of every account, which the journal
// beside it (journal.ts) continues. Here are its reading, its writing, its layout, and the file
// primitives the journal shares (reading line by line, writing a buffer fully, flushing a
// folder's entries to the disk).
//
// Performance: the layout puts each record of a collection on a line of its own, so a data file
// of a million receipts is read one line at a time (SnapshotLineParser), never held whole as
// text, and written in chunks of about 1 MB, each awaited (encodeSnapshot), so that requests go
// on being answered while a compaction writes it. The write benchmarks' targets at 100k and 1M
// receipts (open time, peak RSS, POST p99) rely on both. `bench/extend-data-file.mjs` writes
// the same layout to seed its files: a change to it is a change there too.

/**
 * The sandbox's data file cannot be read or written: the message names the file, the cause and
 * what to do next.
 *
 * @example
 * ```ts
 * import { DataFileError, startSandbox } from '@fflkit/sandbox';
 *
 * try {
 *   await startSandbox({ data: './sandbox.json' });
 * } catch (error) {
 *   if (error instanceof DataFileError) console.error(error.message, error.file);
 * }
 * ```
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  /** Path of the data file. */
  readonly file: string;

  constructor(file: string, message: string, options?: ErrorOptions) {
    super(packageMessage(message), options);
    this.file = file;
  }
}

/**
 * The file operations of the data file, its journal and its lock, given as a parameter so that
 * a test can make the disk fail (full, read-only) where it wants. Node's own by default.
 */
export interface FileSystem {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string | Buffer, options: { mode: number; flag?: string }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, path: string): Promise<void>;
  rm(path: string, options: { force: boolean }): Promise<void>;
  mkdir(path: string, options: { recursive: boolean }): Promise<string | undefined>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<{ size: number; mtimeMs: number }>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
}

/** Node's file system. */
export const nodeFileSystem: FileSystem = {
  open: (path, flags, mode) => nodeFs.open(path, flags, mode),
  readFile: (path, encoding) => nodeFs.readFile(path, encoding),
  writeFile: (path, data, options) => nodeFs.writeFile(path, data, options),
  rename: (from, to) => nodeFs.rename(from, to),
  link: (existing, path) => nodeFs.link(existing, path),
  rm: (path, options) => nodeFs.rm(path, options),
  mkdir: (path, options) => nodeFs.mkdir(path, options),
  readdir: (path) => nodeFs.readdir(path),
  stat: (path) => nodeFs.stat(path),
  utimes: (path, atime, mtime) => nodeFs.utimes(path, atime, mtime),
};

/**
 * Files holding tokens' hashes and webhook secrets are readable by their owner only: the data
 * file, the journal, the lock.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** A lowdb database holding one sandbox snapshot; `data` is `null` until something is saved. */
export type SnapshotDatabase = Low<SandboxSnapshot | null>;

/**
 * Opens the sandbox's lowdb database on the JSON data file at `file` and reads it (see
 * {@link SnapshotFile}). A missing file reads as `null`. The journal beside the
 * file is read apart (see `replayJournal`). With `flush`, each write reaches the disk before it
 * resolves.
 */
export async function openDatabase(
  file: string,
  files: FileSystem = nodeFileSystem,
  flush = true,
): Promise<SnapshotDatabase> {
  const database = new Low<SandboxSnapshot | null>(new SnapshotFile(file, files, flush), null);
  await database.read();
  return database;
}

/** Makes the folder of the data file, with its parents; a folder that cannot be written is told as such. */
export async function makeFolder(file: string, files: FileSystem): Promise<void> {
  try {
    await files.mkdir(dirname(file), { recursive: true });
  } catch (error) {
    const reason = await unwritableParentReason(file, files);
    throw new DataFileError(file, reason ?? `cannot make the folder of the data file ${file} (${String(error)})`, {
      cause: error,
    });
  }
}

/** Error codes of a rename that another process (an indexer, an antivirus) briefly blocks. */
const TRANSIENT_RENAME_ERRORS = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_ATTEMPTS = 10;
const RENAME_RETRY_MS = 100;

/** Thrown inside the line reader to stop it once the file is not in the line layout. */
const LEFT_THE_LAYOUT = Symbol('left the layout');

/**
 * lowdb adapter of the sandbox's JSON data file.
 *
 * A write goes to a temporary file beside the data file (`.NAME.tmp`, as lowdb's own writer
 * names it), which is then renamed over it, so the data file is always one complete JSON
 * document, whenever the process is killed. The bytes come from {@link encodeSnapshot} in chunks
 * of about 1 MB, each awaited. Reading goes line by line ({@link SnapshotLineParser}) unless the
 * file is not in that layout (edited by hand, say): then it is parsed whole. One write runs at a
 * time: a write asked for while another runs starts when it ends. With `flush` (the default), a
 * write resolves only once the new file and its name are on the disk (the temporary file flushed
 * before the rename, the folder after it), so that a machine that stops keeps either file whole.
 */
export class SnapshotFile implements Adapter<SandboxSnapshot | null> {
  readonly #file: string;
  readonly #temporary: string;
  readonly #files: FileSystem;
  readonly #flush: boolean;
  #queue: Promise<void> = Promise.resolve();
  #bytes = 0;

  constructor(file: string, files: FileSystem = nodeFileSystem, flush = true) {
    this.#file = file;
    this.#temporary = join(dirname(file), `.${basename(file)}.tmp`);
    this.#files = files;
    this.#flush = flush;
  }

  /** The size of the file in bytes, as it was last read or written (0 before). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The snapshot in the file, or `null` when there is no file. */
  async read(): Promise<SandboxSnapshot | null> {
    const parser = new SnapshotLineParser(createSnapshotReviver());
    try {
      await readLines(this.#file, this.#files, (text) => {
        if (!parser.line(text)) throw LEFT_THE_LAYOUT;
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (error !== LEFT_THE_LAYOUT) throw this.#error(`cannot read the data file ${this.#file}`, error);
    }
    this.#bytes = await this.#files.stat(this.#file).then(
      ({ size }) => size,
      () => 0,
    );
    const value = parser.end() ?? (await this.#readWhole());
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.#error(
        `the data file ${this.#file} does not hold a sandbox snapshot`,
        undefined,
        'move it away to start afresh',
      );
    }
    return value as SandboxSnapshot;
  }

  /** Replaces the file with `snapshot`, atomically. */
  write(snapshot: SandboxSnapshot | null): Promise<void> {
    const written = this.#queue.then(() => this.#write(snapshot));
    this.#queue = written.catch(() => undefined);
    return written;
  }

  async #readWhole(): Promise<unknown> {
    let text: string;
    try {
      text = await this.#files.readFile(this.#file, 'utf8');
    } catch (error) {
      throw this.#error(`cannot read the data file ${this.#file}`, error);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw this.#error(`the data file ${this.#file} is not valid JSON`, error, 'move it away to start afresh');
    }
  }

  async #write(snapshot: SandboxSnapshot | null): Promise<void> {
    // Each chunk is written before the next is made: one buffer serves them all.
    const chunks = snapshot === null ? [Buffer.from('null\n')] : encodeChunks(snapshot, true);
    try {
      const handle = await this.#files.open(this.#temporary, 'w', PRIVATE_FILE_MODE);
      let bytes = 0;
      try {
        for (const chunk of chunks) {
          await writeFully(handle, chunk);
          bytes += chunk.length;
        }
        if (this.#flush) await handle.datasync();
      } finally {
        await handle.close();
      }
      await renameWithRetries(this.#files, this.#temporary, this.#file);
      if (this.#flush) await syncFolder(dirname(this.#file), this.#files);
      this.#bytes = bytes;
    } catch (error) {
      // A temporary file left by a failed write would hold the disk space that failed it.
      await this.#files.rm(this.#temporary, { force: true }).catch(() => undefined);
      throw this.#error(
        `cannot write the data file ${this.#file}`,
        error,
        'check the free space and the permissions of its folder',
      );
    }
  }

  #error(problem: string, cause: unknown, advice?: string): DataFileError {
    const reason = cause === undefined ? '' : ` (${cause instanceof Error ? cause.message : String(cause)})`;
    const next = advice === undefined ? '' : `: ${advice}`;
    return new DataFileError(this.#file, `${problem}${reason}${next}`, { cause });
  }
}

async function renameWithRetries(files: FileSystem, from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await files.rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (attempt >= RENAME_ATTEMPTS || !TRANSIENT_RENAME_ERRORS.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RENAME_RETRY_MS));
    }
  }
}

/** About how many bytes each chunk of {@link encodeSnapshot} holds. */
const CHUNK_BYTES = 1 << 20;
/** Room past a chunk's size for the record that crosses it; a larger record grows the buffer. */
const CHUNK_SLACK = 1 << 16;

/**
 * The bytes of the data file for `snapshot`, as chunks of about 1 MB to write in order, each
 * made only when asked for: a writer that awaits its write between two chunks lets the event
 * loop answer requests while a large snapshot is written. Each record of a collection takes one
 * line, which keeps the file readable and lets {@link SnapshotLineParser} read it back one line
 * at a time. The bytes are always one JSON document equal in value to `JSON.stringify(snapshot)`.
 */
export function encodeSnapshot(snapshot: SandboxSnapshot): Generator<Buffer, void, undefined> {
  return encodeChunks(snapshot, false);
}

/**
 * The chunks of {@link encodeSnapshot}; with `reuse`, every chunk is written in one buffer, so
 * that a chunk holds its bytes only until the next one is asked for, as a writer that awaits
 * each write needs. A data file of a million receipts (about 1 GB) is then written in the memory
 * of one chunk, where a new megabyte for each chunk would leave the process's heap the larger
 * for it: the million benchmark's peak RSS, which its stop (writing the file) reaches.
 */
function* encodeChunks(snapshot: SandboxSnapshot, reuse: boolean): Generator<Buffer, void, undefined> {
  // Performance: records are written as the core's stringifier gives them (entries `created`
  // from their receipts) straight into the chunk's bytes, with no text the size of a chunk made
  // in between: the million benchmark's stop (about 1 GB written) and its peak RSS.
  const stringify = createSnapshotStringifier();
  const out = new ChunkWriter(reuse);
  out.write('{\n');
  let first = true;
  for (const [key, value] of Object.entries(snapshot)) {
    if (value === undefined || typeof value === 'function') continue;
    if (!first) out.write(',\n');
    first = false;
    if (!Array.isArray(value) || value.length === 0) {
      out.write(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
      continue;
    }
    out.write(`${JSON.stringify(key)}: [\n`);
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out.write(',\n');
      out.write(stringify(value[index]));
      if (out.bytes >= CHUNK_BYTES) yield out.take();
    }
    out.write('\n]');
  }
  out.write(first ? '}\n' : '\n}\n');
  yield out.take();
}

/**
 * Text written as UTF-8 into a buffer, taken a chunk at a time: each chunk a buffer of its own,
 * or (`reuse`) the same buffer again once the chunk is taken.
 */
class ChunkWriter {
  readonly #reuse: boolean;
  #buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES + CHUNK_SLACK);
  #used = 0;

  constructor(reuse: boolean) {
    this.#reuse = reuse;
  }

  /** Bytes written since the last {@link ChunkWriter.take}. */
  get bytes(): number {
    return this.#used;
  }

  write(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8; only a text that may not fit is measured.
    const room = this.#buffer.length - this.#used;
    if (text.length * 3 > room && Buffer.byteLength(text) > room) {
      const larger = Buffer.allocUnsafeSlow(Math.max(this.#buffer.length * 2, this.#used + Buffer.byteLength(text)));
      this.#buffer.copy(larger, 0, 0, this.#used);
      this.#buffer = larger;
    }
    this.#used += this.#buffer.write(text, this.#used);
  }

  /** The bytes written since the last take; the writer goes on in a new buffer, or the same one. */
  take(): Buffer {
    const chunk = this.#buffer.subarray(0, this.#used);
    if (!this.#reuse) this.#buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES + CHUNK_SLACK);
    this.#used = 0;
    return chunk;
  }
}

const MEMBER = /^("(?:[^"\\]|\\.)*"): (.*)$/s;

type ParserState = 'start' | 'members' | 'records' | 'done' | 'invalid';

/**
 * Parses a data file line by line, as {@link readLines} hands the lines over, when the file is
 * in the layout that {@link encodeSnapshot} writes: `{`, one member per line, each record of a
 * collection on a line of its own, `}`. Only one line is held at a time, so reading a large
 * file costs little more memory than the records themselves. {@link SnapshotLineParser.line}
 * answers `false` as soon as the lines leave that layout (a file edited by hand, pretty-printed
 * or cut short); the caller then parses the whole file with `JSON.parse` instead. Each record
 * goes through `revive` (the core's {@link createSnapshotReviver}) as it is read, so that the
 * records are held in the form the core keeps them from the start, and those it knows from their
 * text alone are not parsed at all.
 */
export class SnapshotLineParser {
  readonly #revive: SnapshotReviver | undefined;
  readonly #snapshot: Record<string, unknown> = {};
  #state: ParserState = 'start';
  #members = 0;
  #key = '';
  #records: unknown[] = [];
  /** Whether the last member or record line ended with the comma that announces another. */
  #comma = false;

  constructor(revive?: SnapshotReviver) {
    this.#revive = revive;
  }

  /** Takes the next line (without its newline); answers `false` once the layout is left. */
  line(text: string): boolean {
    try {
      this.#state = this.#next(text);
    } catch {
      this.#state = 'invalid';
    }
    return this.#state !== 'invalid';
  }

  /** The snapshot, or `undefined` when the lines left the layout or stopped before `}`. */
  end(): SandboxSnapshot | undefined {
    return this.#state === 'done' ? (this.#snapshot as SandboxSnapshot) : undefined;
  }

  #next(text: string): ParserState {
    if (this.#state === 'start') return text === '{' ? 'members' : 'invalid';
    if (this.#state === 'members') return this.#member(text);
    if (this.#state === 'records') return this.#record(text);
    return 'invalid';
  }

  #member(text: string): ParserState {
    if (text === '}') return this.#members === 0 || !this.#comma ? 'done' : 'invalid';
    if (this.#members > 0 && !this.#comma) return 'invalid';
    const match = MEMBER.exec(text);
    if (match === null) return 'invalid';
    const key = JSON.parse(match[1]!) as string;
    // An own member named __proto__ cannot be assigned; JSON.parse of the whole file keeps it.
    if (key === '__proto__' || Object.hasOwn(this.#snapshot, key)) return 'invalid';
    const rest = match[2]!;
    this.#members += 1;
    if (rest === '[') {
      this.#key = key;
      this.#records = [];
      this.#comma = false;
      return 'records';
    }
    this.#comma = rest.endsWith(',');
    this.#snapshot[key] = JSON.parse(this.#comma ? rest.slice(0, -1) : rest) as unknown;
    return 'members';
  }

  #record(text: string): ParserState {
    if (text.startsWith(']')) {
      if (this.#records.length === 0 || this.#comma || (text !== ']' && text !== '],')) return 'invalid';
      this.#snapshot[this.#key] = this.#records;
      this.#comma = text === '],';
      return 'members';
    }
    if (this.#records.length > 0 && !this.#comma) return 'invalid';
    this.#comma = text.endsWith(',');
    const json = this.#comma ? text.slice(0, -1) : text;
    const revive = this.#revive;
    const known = revive?.text(this.#key, json);
    if (known !== undefined) {
      this.#records.push(known);
      return 'records';
    }
    const record = JSON.parse(json) as unknown;
    this.#records.push(revive === undefined ? record : revive.record(this.#key, record));
    return 'records';
  }
}

const NEWLINE = 0x0a;
/** Bytes {@link readLines} reads from the file at a time. */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * Reads a file line by line without holding it whole: `onLine` gets each line's text (UTF-8,
 * without its newline) and whether a newline ended it, which only the last line may lack.
 * Splitting on the newline byte is safe in UTF-8, where no multi-byte character contains it.
 * Errors of the file system (`ENOENT` included) reject the promise as they are. The journal
 * reads its segments with it too.
 */
export async function readLines(
  file: string,
  files: FileSystem,
  onLine: (text: string, terminated: boolean) => void,
): Promise<void> {
  const handle = await files.open(file, 'r');
  // Two buffers: the next read fills one while the lines of the other are handed over, so that
  // reading a large data file overlaps with parsing it (the million benchmark's open time).
  const buffers = [Buffer.allocUnsafe(READ_CHUNK_BYTES), Buffer.allocUnsafe(READ_CHUNK_BYTES)];
  let filling = 0;
  const read = () => handle.read(buffers[filling]!, 0, READ_CHUNK_BYTES, null);
  let next = read();
  try {
    let pending: Buffer[] = [];
    for (;;) {
      const { bytesRead } = await next;
      if (bytesRead === 0) break;
      const chunk = buffers[filling]!.subarray(0, bytesRead);
      filling = 1 - filling;
      next = read();
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        if (pending.length === 0) {
          onLine(chunk.toString('utf8', start, end), true);
        } else {
          pending.push(chunk.subarray(start, end));
          onLine(Buffer.concat(pending).toString('utf8'), true);
          pending = [];
        }
        start = end + 1;
      }
      // The buffer is read into again, so the start of an unfinished line is copied.
      if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
    }
    if (pending.length > 0) onLine(Buffer.concat(pending).toString('utf8'), false);
  } finally {
    // A read still in flight (onLine threw) finishes before the file is closed; its outcome is moot.
    next.catch(() => undefined);
    await handle.close();
  }
}

/**
 * Writes all of `bytes` at the file's position (at its end for a file opened to append): one
 * `write` call, followed by more only in the rare case that the system writes fewer bytes. The
 * journal appends with it too.
 */
export async function writeFully(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw new Error(`wrote ${offset} of ${bytes.length} bytes`);
    offset += bytesWritten;
  }
}

/**
 * Flushes a folder's entries to the disk, so that a file renamed into it, or made in it, keeps
 * its name when the machine stops. A system that cannot open a folder as a file (Windows) flushes
 * its entries with the file, and is let be.
 */
export async function syncFolder(folder: string, files: FileSystem): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await files.open(folder, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'EPERM' || code === 'EACCES') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a new file whole (mode 0600), and with `flush` reaches the disk with its bytes before it
 * resolves; its name reaches the disk with {@link syncFolder}.
 */
export async function writeNewFile(path: string, bytes: Buffer, files: FileSystem, flush: boolean): Promise<void> {
  const handle = await files.open(path, 'w', PRIVATE_FILE_MODE);
  try {
    await writeFully(handle, bytes);
    if (flush) await handle.datasync();
  } finally {
    await handle.close();
  }
}
