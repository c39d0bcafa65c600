import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import type { Adapter } from 'lowdb';
import { DataFileError } from './data-file-error';
import { encodeSnapshot } from './encode-snapshot';
import { readLines } from './read-lines';
import { SnapshotLineParser } from './snapshot-line-parser';
import { writeFully } from './write-fully';

/** Error codes of a rename that another process (an indexer, an antivirus) briefly blocks. */
const TRANSIENT_RENAME_ERRORS = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_ATTEMPTS = 10;
const RENAME_RETRY_MS = 100;

/** Thrown inside the line reader to stop it once the file is not in the line layout. */
const LEFT_THE_LAYOUT = Symbol('left the layout');

/**
 * lowdb adapter of the sandbox's JSON data file, the snapshot that the journal continues.
 *
 * A write goes to a temporary file beside the data file (`.NAME.tmp`, as lowdb's own writer
 * names it), which is then renamed over it, so the data file is always one complete JSON
 * document, whenever the process is killed. The bytes come from {@link encodeSnapshot} in chunks
 * of about 1 MB, each awaited, so that the event loop goes on answering requests while a large
 * snapshot is written. Reading goes line by line ({@link SnapshotLineParser}), without holding
 * the file whole, unless the file is not in that layout (edited by hand, say): then it is
 * parsed whole. One write runs at a time: a write asked for while another runs starts when it
 * ends.
 */
export class SnapshotFile implements Adapter<SandboxSnapshot | null> {
  readonly #file: string;
  readonly #temporary: string;
  #queue: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
    this.#temporary = join(dirname(file), `.${basename(file)}.tmp`);
  }

  /** The snapshot in the file, or `null` when there is no file. */
  async read(): Promise<SandboxSnapshot | null> {
    const parser = new SnapshotLineParser();
    try {
      await readLines(this.#file, (text) => {
        if (!parser.line(text)) throw LEFT_THE_LAYOUT;
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (error !== LEFT_THE_LAYOUT) throw this.#error(`cannot read the data file ${this.#file}`, error);
    }
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
      text = await readFile(this.#file, 'utf8');
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
    const chunks = snapshot === null ? [Buffer.from('null\n')] : encodeSnapshot(snapshot);
    try {
      const handle = await open(this.#temporary, 'w');
      try {
        for (const chunk of chunks) await writeFully(handle, chunk);
      } finally {
        await handle.close();
      }
      await renameWithRetries(this.#temporary, this.#file);
    } catch (error) {
      throw this.#error(
        `cannot write the data file ${this.#file}`,
        error,
        'check the free space and the permissions of its folder',
      );
    }
  }

  #error(problem: string, cause: unknown, advice?: string): DataFileError {
    const reason =
      cause === undefined ? '' : ` (${cause instanceof Error ? cause.message : String(cause)})`;
    const next = advice === undefined ? '' : `: ${advice}`;
    return new DataFileError(this.#file, `${problem}${reason}${next}`, { cause });
  }
}

async function renameWithRetries(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (attempt >= RENAME_ATTEMPTS || !TRANSIENT_RENAME_ERRORS.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RENAME_RETRY_MS));
    }
  }
}
