import { parseArgs as parseNodeArgs } from 'node:util';
import { UsageError } from './usage-error';
import { DEFAULT_BASE_URL } from './usage-text';

/** The options of one sync, from the command line and the environment. */
export interface SyncCommand {
  readonly kind: 'sync';
  readonly baseUrl: string;
  readonly token: string;
  /** A file path, or `-` for stdout. */
  readonly out: string;
  readonly checkpoint: string;
  readonly book: string | undefined;
}

/** What the command line asks for. */
export type Command = { readonly kind: 'help' } | SyncCommand;

/**
 * Reads the command line with `node:util`'s `parseArgs`, falling back on `FFLKIT_BASE_URL`
 * and `FFLKIT_TOKEN`. A mistake throws a {@link UsageError} that says what to pass instead.
 *
 * @example
 * ```ts
 * parseArgs(['--out', 'book.csv'], { FFLKIT_TOKEN: 'sbx_...' });
 * // { kind: 'sync', baseUrl: 'http://127.0.0.1:4010/rest/v1', token: 'sbx_...', out: 'book.csv', checkpoint: '.sync-checkpoint.json', book: undefined }
 * ```
 */
export function parseArgs(args: readonly string[], env: NodeJS.ProcessEnv): Command {
  let values;
  try {
    ({ values } = parseNodeArgs({
      // `pnpm start -- --out x.csv` passes its `--` on to the script: it separates nothing here.
      args: args[0] === '--' ? args.slice(1) : [...args],
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        out: { type: 'string' },
        checkpoint: { type: 'string' },
        book: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; see --help`, { cause: error });
  }
  if (values.help === true) return { kind: 'help' };

  const token = values.token ?? nonEmpty(env['FFLKIT_TOKEN']);
  if (token === undefined || token === '') {
    throw new UsageError(
      'no API token: set FFLKIT_TOKEN or pass --token (the sandbox prints one when it starts; `curl -X POST <sandbox>/_sandbox/accounts` makes another)',
    );
  }
  for (const flag of ['out', 'checkpoint', 'book'] as const) {
    if (values[flag] === '') throw new UsageError(`--${flag} needs a value; see --help`);
  }
  return {
    kind: 'sync',
    baseUrl: checkBaseUrl(values['base-url'] ?? nonEmpty(env['FFLKIT_BASE_URL']) ?? DEFAULT_BASE_URL),
    token,
    out: values.out ?? 'bound-book.csv',
    checkpoint: values.checkpoint ?? '.sync-checkpoint.json',
    book: values.book,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

// The service's base URL is an http(s) address whose path ends in /rest/v1 (interface document, section 9).
function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`the base URL ${JSON.stringify(text)} is not a URL: pass --base-url like ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `the base URL ${JSON.stringify(text)} is not http(s): pass --base-url like ${DEFAULT_BASE_URL}`,
    );
  }
  const normalised = text.replace(/\/+$/, '');
  if (!normalised.endsWith('/rest/v1') || url.search !== '' || url.hash !== '') {
    throw new UsageError(
      `the base URL ${JSON.stringify(text)} does not end in /rest/v1: pass the API's base, like ${DEFAULT_BASE_URL}`,
    );
  }
  return normalised;
}
