import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ApiError } from '@fflkit/sandbox-core';
import { packageMessage } from './support/errors';

// Fixtures files on disk: reading one (JSON or YAML) for `--fixtures` and
// `startSandbox({ fixtures })`, writing one for `fflkit-sandbox export`, and the error that
// stops a start when a file cannot be read or loaded, which names every fault by its path in the
// file.
//
// The file's format and parsing are sandbox-core's (`@fflkit/sandbox-core/fixtures-file`),
// which the MSW mock shares: one rule for both faces.

/**
 * A fixtures file could not be loaded: it cannot be read, it is neither JSON nor YAML, or the
 * sandbox refused what it holds. The message names the file and every fault, each by its path
 * in the file (`accounts[0].receipts[3].zip: ...`), and says what to do; `errors` holds the same
 * faults by path (empty when the file could not be read at all).
 *
 * @example
 * ```ts
 * import { FixturesError, startSandbox } from '@fflkit/sandbox';
 *
 * try {
 *   await startSandbox({ fixtures: './test/fixtures.yaml' });
 * } catch (error) {
 *   // { 'accounts[0].tokens[0].token': ['must be sbx_ followed by 20 to 128 letters and digits: ...'] }
 *   if (error instanceof FixturesError) console.error(error.errors);
 *   throw error;
 * }
 * ```
 */
export class FixturesError extends Error {
  override readonly name = 'FixturesError';
  /** Absolute path of the fixtures file, or `undefined` for fixtures given as an object. */
  readonly file: string | undefined;
  /** Each fault by its path in the file, as the sandbox's loader names them. */
  readonly errors: Readonly<Record<string, readonly string[]>>;

  constructor(
    file: string | undefined,
    message: string,
    errors: Readonly<Record<string, readonly string[]>> = {},
    options?: ErrorOptions,
  ) {
    super(packageMessage(message), options);
    this.file = file;
    this.errors = errors;
  }
}

/**
 * Reads and parses a fixtures file by the rule of `@fflkit/sandbox-core/fixtures-file` (JSON
 * or YAML by its extension, or by its first character), loaded only when a file is given so
 * that a start without fixtures never loads the YAML parser. Rejects with a
 * {@link FixturesError} that says what is wrong with the file; what it holds is judged when it
 * is loaded.
 */
export async function readFixturesFile(path: string): Promise<Record<string, unknown>> {
  const { FixturesFileError, readFixturesFile: read } = await import('@fflkit/sandbox-core/fixtures-file');
  try {
    return read(path);
  } catch (error) {
    if (error instanceof FixturesFileError)
      throw new FixturesError(error.file, error.reason, error.errors, { cause: error });
    throw error;
  }
}

/**
 * Writes a fixtures file, readable by its owner alone (mode 0600): it holds a token and the
 * secrets of webhook endpoints. The text goes to a new file beside it, which then replaces
 * whatever had the name: a file (whose readers, and the mode it had, never see the secrets), a
 * symbolic link (replaced, not followed) or a FIFO (replaced, never waited on).
 */
export async function writeFixturesFile(path: string, text: string): Promise<void> {
  const written = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(written, text, { mode: 0o600, flag: 'wx' });
    await rename(written, path);
  } catch (error) {
    await rm(written, { force: true });
    throw error;
  }
}

/**
 * The error of a load the sandbox refused: its 422 with every fault by its path in the file, or
 * its 409 when the file would make more accounts than the sandbox holds.
 */
export function refusedFixtures(error: ApiError, file: string | undefined): FixturesError {
  const where = file === undefined ? 'the fixtures' : `the fixtures file ${file}`;
  if (error.status !== 422) {
    return new FixturesError(file, `${where} could not be loaded: ${error.body.message}`, {}, { cause: error });
  }
  const errors = error.body.errors ?? {};
  const faults = Object.entries(errors).flatMap(([path, messages]) =>
    messages.map((message) => `  ${path}: ${message}`),
  );
  const count = faults.length === 1 ? 'a fault' : `${faults.length} faults`;
  return new FixturesError(
    file,
    `${where} ${file === undefined ? 'have' : 'has'} ${count}, so nothing was loaded; fix ${faults.length === 1 ? 'it' : 'them'} and start again:\n${faults.join('\n')}`,
    errors,
    { cause: error },
  );
}
