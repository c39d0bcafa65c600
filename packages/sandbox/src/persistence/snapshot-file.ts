import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import type { Adapter } from 'lowdb';
import { createSnapshotEncoder } from './create-snapshot-encoder';
import { DataFileError } from './data-file-error';
import { parseSnapshotFile } from './parse-snapshot-file';

/** Error codes of a rename that another process (an indexer, an antivirus) briefly blocks. */
const TRANSIENT_RENAME_ERRORS = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_ATTEMPTS = 10;
const RENAME_RETRY_MS = 100;

/**
 * lowdb adapter of the sandbox's JSON data file.
 *
 * A write goes to a temporary file beside the data file (`.NAME.tmp`, as lowdb's own writer
 * names it), which is then renamed over it, so the data file is always one complete JSON
 * document, whenever the process is killed. The bytes come from {@link createSnapshotEncoder}
 * (cached per record) in one vectored write; reading the file back hands each record's bytes to
 * the encoder, so the first write after a restart is as cheap as the next ones. One write runs
 * at a time: a write asked for while another runs starts when it ends.
 *
 * @example
 * ```ts
 * const database = new Low<SandboxSnapshot | null>(new SnapshotFile('./sandbox.json'), null);
 * await database.read();
 * ```
 */
export class SnapshotFile implements Adapter<SandboxSnapshot | null> {
  readonly #file: string;
  readonly #temporary: string;
  readonly #encoder = createSnapshotEncoder();
  #queue: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
    this.#temporary = join(dirname(file), `.${basename(file)}.tmp`);
  }

  /** The snapshot in the file, or `null` when there is no file. */
  async read(): Promise<SandboxSnapshot | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.#file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw this.#error(`cannot read the data file ${this.#file}`, error);
    }
    let value: unknown;
    try {
      value = parseSnapshotFile(bytes, this.#encoder.remember);
    } catch (error) {
      throw this.#error(`the data file ${this.#file} is not valid JSON`, error, 'move it away to start afresh');
    }
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

  async #write(snapshot: SandboxSnapshot | null): Promise<void> {
    const chunks = snapshot === null ? [Buffer.from('null\n')] : this.#encoder.encode(snapshot);
    let expected = 0;
    for (const chunk of chunks) expected += chunk.length;
    try {
      const handle = await open(this.#temporary, 'w');
      try {
        // libuv splits the chunks into writes of at most IOV_MAX buffers and resumes short ones.
        const { bytesWritten } = await handle.writev(chunks);
        if (bytesWritten !== expected) {
          throw new Error(`wrote ${bytesWritten} of ${expected} bytes`);
        }
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
