import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

// The command line of `boundbook-sandbox`: its flags, their reading, and the help text.

/**
 * The command line is wrong: an unknown flag, a missing or malformed value, or flags that
 * contradict each other. The CLI prints the message with a usage hint and exits with code 2.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The default data file, relative to the working directory. */
export const DEFAULT_DATA_FILE = './.boundbook/sandbox.json';

/** What the command line asks for. */
export type CliCommand =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'start';
      readonly port: number;
      readonly host: string;
      /** Absolute path of the data file, or `undefined` with `--memory`. */
      readonly data: string | undefined;
      /** Requests per minute per token, or `undefined` for the service's default. */
      readonly rateLimit: number | undefined;
      /** The most accounts, or `undefined` for the default. */
      readonly maxAccounts: number | undefined;
      readonly allowedHosts: readonly string[];
      readonly cors: readonly string[];
      readonly quiet: boolean;
    };

/**
 * Reads the CLI's arguments with `node:util`'s `parseArgs`; a mistake throws a
 * {@link CliUsageError} whose message says what is wrong.
 */
export function parseCliArguments(args: readonly string[], cwd = process.cwd()): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        memory: { type: 'boolean' },
        'rate-limit': { type: 'string' },
        'max-accounts': { type: 'string' },
        'allowed-hosts': { type: 'string', multiple: true },
        cors: { type: 'string', multiple: true },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  if (values.help === true) return { kind: 'help' };
  if (values.memory === true && values.data !== undefined) {
    throw new CliUsageError('--memory and --data exclude each other: pass one of them');
  }
  if (values.data === '') throw new CliUsageError('--data needs a file path');
  if (values.host === '') throw new CliUsageError('--host needs an address, such as 127.0.0.1');
  return {
    kind: 'start',
    port: wholeNumber('--port', values.port, 4010, 65_535),
    host: values.host ?? '127.0.0.1',
    data: values.memory === true ? undefined : resolve(cwd, values.data ?? DEFAULT_DATA_FILE),
    rateLimit:
      values['rate-limit'] === undefined
        ? undefined
        : wholeNumber('--rate-limit', values['rate-limit'], 0, Number.MAX_SAFE_INTEGER),
    maxAccounts:
      values['max-accounts'] === undefined ? undefined : positiveNumber('--max-accounts', values['max-accounts']),
    allowedHosts: list('--allowed-hosts', values['allowed-hosts']),
    cors: list('--cors', values.cors).map((origin) => checkedOrigin(origin)),
    quiet: values.quiet === true,
  };
}

function positiveNumber(flag: string, text: string): number {
  const value = wholeNumber(flag, text, 0, Number.MAX_SAFE_INTEGER);
  if (value < 1) throw new CliUsageError(`${flag} must be a whole number of 1 or more, not ${JSON.stringify(text)}`);
  return value;
}

/** The values of a flag given once or more, each a comma-separated list. */
function list(flag: string, values: readonly string[] | undefined): string[] {
  const entries = (values ?? []).flatMap((value) => value.split(',')).map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) throw new CliUsageError(`${flag} needs a name after it, and no empty entry between commas`);
  return entries;
}

function checkedOrigin(origin: string): string {
  if (origin === '*' || origin === 'null') return origin;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
    throw new CliUsageError(`--cors takes an origin, such as http://localhost:5173 (a scheme, a host and a port, no path), not ${JSON.stringify(origin)}`);
  }
  return origin.replace(/\/$/, '');
}

function wholeNumber(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? '0 or more' : `from 0 to ${max}`;
    throw new CliUsageError(`${flag} must be a whole number ${range}, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** The text of `boundbook-sandbox --help`. */
export const usageText = `Usage: boundbook-sandbox [options]

Starts a local sandbox of the A&D Logbook Service: the API under /rest/v1 and the sandbox
control API under /_sandbox, saved to one JSON file.

Options:
  --port <number>        Port to listen on (default 4010; 0 picks a free port)
  --host <address>       Interface to listen on (default 127.0.0.1)
  --data <file>          JSON data file, created with its directories when missing
                         (default ./.boundbook/sandbox.json)
  --memory               Keep everything in memory; save nothing
  --rate-limit <number>  Requests per minute per token (default 60; 0 lifts the limit)
  --max-accounts <n>     The most accounts the sandbox holds (default 10000)
  --allowed-hosts <names>
                         Host names to answer to besides localhost and IP addresses,
                         comma-separated (a CI service name, a LAN name; .example.com
                         for a domain and its subdomains; all for any)
  --cors <origins>       Origins allowed to call the sandbox from a browser, with CORS,
                         comma-separated (such as http://localhost:5173)
  --quiet                Do not print a line for each request
  --help                 Show this help

On a new data file the sandbox makes a dealer account with the book Main and prints its token.
More accounts: curl -X POST http://127.0.0.1:4010/_sandbox/accounts
`;
