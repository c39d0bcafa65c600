import { readFile, writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { ApiError } from '@boundbook/sandbox-core';
import type { SandboxFixtures } from '@boundbook/types';

// Fixtures files on disk: reading one (JSON or YAML) for `--fixtures` and
// `startSandbox({ fixtures })`, writing one for `boundbook-sandbox export`, and the error that
// stops a start when a file cannot be read or loaded, which names every fault by its path in the
// file.
//
// YAML is read and written by the `yaml` package, loaded only when a YAML file is met: a JSON
// file, and a start without fixtures, never load it.

/**
 * A fixtures file could not be loaded: it cannot be read, it is neither JSON nor YAML, or the
 * sandbox refused what it holds. The message names the file and every fault, each by its path
 * in the file (`accounts[0].receipts[3].zip: ...`), and says what to do; `errors` holds the same
 * faults by path (empty when the file could not be read at all).
 *
 * @example
 * ```ts
 * import { FixturesError, startSandbox } from '@boundbook/sandbox';
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

  constructor(file: string | undefined, message: string, errors: Readonly<Record<string, readonly string[]>> = {}, options?: ErrorOptions) {
    super(`[@boundbook/sandbox] ${message}`, options);
    this.file = file;
    this.errors = errors;
  }
}

/** The formats of a fixtures file. */
export type FixturesFormat = 'json' | 'yaml';

/**
 * The format a file's name asks for: YAML for `.yaml` and `.yml`, JSON for `.json`, and
 * `undefined` for any other name (the content decides).
 */
export function fixturesFormatOf(path: string): FixturesFormat | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '.yaml' || extension === '.yml') return 'yaml';
  return extension === '.json' ? 'json' : undefined;
}

/**
 * Reads and parses a fixtures file: JSON or YAML by its extension, or, for any other name, JSON
 * when its first character is `{` and YAML otherwise. Rejects with a {@link FixturesError} that
 * says what is wrong with the file (missing, a folder, unreadable, not JSON or YAML, not an
 * object); what it holds is judged when it is loaded.
 */
export async function readFixturesFile(path: string): Promise<Record<string, unknown>> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FixturesError(file, unreadable(file, error), {}, { cause: error });
  }
  // A byte order mark, as some Windows editors write it, is not part of the document.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') throw new FixturesError(file, `the fixtures file ${file} is empty: write an object with a list of accounts in it`);
  const named = fixturesFormatOf(file);
  const format = named ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml');
  let parsed: unknown;
  try {
    parsed = format === 'json' ? JSON.parse(text) : (await import('yaml')).parse(text, { prettyErrors: true });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).trimEnd();
    throw new FixturesError(file, `the fixtures file ${file} is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${reason}`, {}, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    // A file named neither .json nor .yaml that is not JSON is read as YAML, which takes any text as a string.
    const read = named === undefined ? ` (read as ${format === 'json' ? 'JSON' : 'YAML, as its name does not end in .json and it does not begin with {'})` : '';
    throw new FixturesError(
      file,
      `the fixtures file ${file} holds ${describe(parsed)}${read}, not a fixtures file: write an object with a list of accounts, as @boundbook/types/fixtures.schema.json describes it`,
    );
  }
  return parsed as Record<string, unknown>;
}

/**
 * A fixtures file as text: YAML (quoting every string that a YAML 1.1 reader would take for a
 * date, a number or a boolean, so that any reader gets the strings back) or JSON indented by
 * two spaces, each ending with a newline.
 */
export async function formatFixtures(fixtures: SandboxFixtures, format: FixturesFormat): Promise<string> {
  if (format === 'json') return `${JSON.stringify(fixtures, null, 2)}\n`;
  const { stringify } = await import('yaml');
  return stringify(fixtures, { version: '1.1', lineWidth: 0 });
}

/**
 * Writes a fixtures file, readable by its owner alone (mode 0600): it holds a token and the
 * secrets of webhook endpoints.
 */
export async function writeFixturesFile(path: string, text: string): Promise<void> {
  await writeFile(path, text, { mode: 0o600 });
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
  const faults = Object.entries(errors).flatMap(([path, messages]) => messages.map((message) => `  ${path}: ${message}`));
  const count = faults.length === 1 ? 'a fault' : `${faults.length} faults`;
  return new FixturesError(file, `${where} ${file === undefined ? 'have' : 'has'} ${count}, so nothing was loaded; fix ${faults.length === 1 ? 'it' : 'them'} and start again:\n${faults.join('\n')}`, errors, { cause: error });
}

function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `there is no fixtures file ${file}: check the path, which is taken from the working directory (${process.cwd()})`;
  if (code === 'EISDIR') return `${file} is a folder, not a fixtures file: give the path of a .json, .yaml or .yml file`;
  if (code === 'EACCES' || code === 'EPERM') return `no permission to read the fixtures file ${file}: check its permissions`;
  return `cannot read the fixtures file ${file} (${error instanceof Error ? error.message : String(error)})`;
}

function describe(value: unknown): string {
  if (value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
