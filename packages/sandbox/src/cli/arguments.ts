import { resolve } from 'node:path';
import { checkReceiverCommand } from './check-receiver-command';
import { choicesCommand } from './choices-command';
import { conformanceCommand } from './conformance-command';
import { exportCommand } from './export-command';
import {
  type CliOption,
  CliUsageError,
  formatOptions,
  listOf,
  readOptions,
  type ReadOptions,
  switchOf,
  textOf,
  wholeNumberOf,
} from './options';
import { proxyCommand } from './proxy-command';
import { DEFAULT_PORT, formatSubcommandHelp, HELP_OPTION, type Subcommand } from './subcommand';
import { tailCommand } from './tail-command';
import { triggerCommand } from './trigger-command';

// The command line of `fflkit-sandbox`: which command it asks for, the options of the start
// (the command without a name), each with its environment variable, the table of subcommands,
// and the top-level help.

export { CliUsageError } from './options';

/**
 * The subcommands, in the order the help lists them. To add one, write it in a file of its own
 * (see subcommand.ts) and add it here.
 */
export const SUBCOMMANDS: readonly Subcommand[] = [
  exportCommand,
  triggerCommand,
  tailCommand,
  checkReceiverCommand,
  choicesCommand,
  proxyCommand,
  conformanceCommand,
];

/** The width of the commands' column in the help: the longest name and two spaces. */
const COMMAND_COLUMN = Math.max(...SUBCOMMANDS.map(({ name }) => name.length)) + 2;

/** The default data file, relative to the working directory. */
const DEFAULT_DATA_FILE = './.fflkit/sandbox.json';

/** The options of the start, each with the variable it is also read from, in the help's order. */
export const START_OPTIONS: readonly CliOption[] = [
  {
    flag: 'port',
    kind: 'value',
    placeholder: '<number>',
    variable: 'FFLKIT_SANDBOX_PORT',
    help: [`Port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)`],
  },
  {
    flag: 'host',
    kind: 'value',
    placeholder: '<address>',
    variable: 'FFLKIT_SANDBOX_HOST',
    help: ['Interface to listen on (default 127.0.0.1)'],
  },
  {
    flag: 'data',
    kind: 'value',
    placeholder: '<file>',
    variable: 'FFLKIT_SANDBOX_DATA',
    help: ['JSON data file, created with its directories when missing', `(default ${DEFAULT_DATA_FILE})`],
  },
  {
    flag: 'memory',
    kind: 'switch',
    variable: 'FFLKIT_SANDBOX_MEMORY',
    help: ['Keep everything in memory; save nothing'],
  },
  {
    flag: 'no-flush',
    kind: 'switch',
    variable: 'FFLKIT_SANDBOX_NO_FLUSH',
    help: [
      'Answer a write once the data file holds it, without waiting for',
      'the disk to flush it: faster, and a write still survives the',
      'sandbox being killed, but not the machine stopping',
    ],
  },
  {
    flag: 'fixtures',
    kind: 'value',
    placeholder: '<file>',
    variable: 'FFLKIT_SANDBOX_FIXTURES',
    help: [
      'A fixtures file (JSON or YAML) to load before listening: accounts',
      'with fixed tokens, endpoints with fixed secrets, receipts; loaded',
      'at every start, adding only what the data file lacks',
    ],
  },
  {
    flag: 'demo',
    kind: 'switch',
    variable: 'FFLKIT_SANDBOX_DEMO',
    help: [
      'Add a demo account: books, a few thousand receipts (some disposed,',
      'some corrected) and a webhook endpoint; its token is printed',
    ],
  },
  {
    flag: 'seed',
    kind: 'value',
    placeholder: '<number>',
    variable: 'FFLKIT_SANDBOX_SEED',
    help: ['The demo for this seed (default 1): the same records every time'],
  },
  {
    flag: 'rate-limit',
    kind: 'value',
    placeholder: '<number>',
    variable: 'FFLKIT_SANDBOX_RATE_LIMIT',
    help: ['Requests per minute per token (default 60; 0 lifts the limit)'],
  },
  {
    flag: 'max-accounts',
    kind: 'value',
    placeholder: '<number>',
    variable: 'FFLKIT_SANDBOX_MAX_ACCOUNTS',
    help: ['The most accounts the sandbox holds (default 10000)'],
  },
  {
    flag: 'allowed-hosts',
    kind: 'list',
    placeholder: '<names>',
    variable: 'FFLKIT_SANDBOX_ALLOWED_HOSTS',
    help: [
      'Host names to answer to besides localhost and IP addresses,',
      'comma-separated (a CI service name, a LAN name; .example.com',
      'for a domain and its subdomains; all for any)',
    ],
  },
  {
    flag: 'cors',
    kind: 'list',
    placeholder: '<origins>',
    variable: 'FFLKIT_SANDBOX_CORS',
    help: [
      'Origins allowed to call the sandbox from a browser, with CORS,',
      'comma-separated (such as http://localhost:5173)',
    ],
  },
  { flag: 'quiet', kind: 'switch', variable: 'FFLKIT_SANDBOX_QUIET', help: ['Do not print a line for each request'] },
];

const VERSION_OPTION: CliOption = { flag: 'version', short: 'v', kind: 'switch', help: ['Print the version'] };

/** What the start needs, read from the command line and the environment. */
export interface StartOptions {
  readonly kind: 'start';
  readonly port: number;
  readonly host: string;
  /** Absolute path of the data file, or `undefined` in memory. */
  readonly data: string | undefined;
  /** Whether each write reaches the disk before it is answered (off with `--no-flush`). */
  readonly flush: boolean;
  /**
   * The journal's size in bytes from which it is folded into the data file, as
   * `FFLKIT_SANDBOX_COMPACT_AT_BYTES` sets it (a tuning knob without a flag); `undefined` for the
   * default.
   */
  readonly compactAtBytes: number | undefined;
  /** Requests per minute per token, or `undefined` for the service's default. */
  readonly rateLimit: number | undefined;
  /** The most accounts, or `undefined` for the default. */
  readonly maxAccounts: number | undefined;
  readonly allowedHosts: readonly string[];
  readonly cors: readonly string[];
  /** Absolute path of the fixtures file to load, or `undefined`. */
  readonly fixtures: string | undefined;
  /** The seed of the demo account to add, or `undefined` without `--demo`. */
  readonly demoSeed: number | undefined;
  readonly quiet: boolean;
}

/** What the command line asks for. */
export type CliCommand =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'subcommand'; readonly command: Subcommand; readonly options: ReadOptions }
  | StartOptions;

/**
 * Reads the command line (and, for every option not on it, its environment variable): a
 * subcommand when the first argument is a name, else the start. A mistake throws a
 * {@link CliUsageError} whose message says what is wrong and whose `usage` is the usage line of
 * the command concerned.
 */
export function parseCliArguments(
  given: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CliCommand {
  // `pnpm start -- --port 4020` and `npm start -- ...` pass their separator on: it ends nothing here.
  const args = given[0] === '--' ? given.slice(1) : given;
  const [first, ...rest] = args;
  if (first !== undefined && !first.startsWith('-')) {
    const command = SUBCOMMANDS.find((candidate) => candidate.name === first);
    if (command === undefined) {
      throw new CliUsageError(
        `Unknown command '${first}': the commands are ${SUBCOMMANDS.map(({ name }) => name).join(', ')}`,
      );
    }
    const usage = `Usage: fflkit-sandbox ${command.name} ${command.usage}`;
    const options = withUsage(usage, () =>
      readOptions([...command.options, HELP_OPTION], rest, env, command.positionals ?? 0),
    );
    if (switchOf(options, 'help')) return { kind: 'help', text: formatSubcommandHelp(command) };
    return { kind: 'subcommand', command, options };
  }
  const options = readOptions([...START_OPTIONS, HELP_OPTION, VERSION_OPTION], args, env);
  if (switchOf(options, 'help')) return { kind: 'help', text: usageText };
  if (switchOf(options, 'version')) return { kind: 'version' };
  return readStart(options, env, cwd);
}

function readStart(options: ReadOptions, env: Readonly<Record<string, string | undefined>>, cwd: string): StartOptions {
  const data = textOf(options, 'data');
  const memory = options.values.get('memory');
  // A flag wins over a variable: --data overrules FFLKIT_SANDBOX_MEMORY, and --memory
  // overrules FFLKIT_SANDBOX_DATA. Two flags, or two variables, contradict each other.
  let inMemory = memory?.value === true;
  if (inMemory && data !== undefined && memory!.source.startsWith('--') === data.source.startsWith('--')) {
    throw new CliUsageError(`${memory!.source} and ${data.source} exclude each other: give one of them`);
  }
  if (inMemory && data?.source.startsWith('--')) inMemory = false;
  const useData = !inMemory && data !== undefined;
  if (useData && data.value === '') throw new CliUsageError(`${data.source} needs a file path`);
  const host = textOf(options, 'host');
  if (host !== undefined && host.value === '')
    throw new CliUsageError(`${host.source} needs an address, such as 127.0.0.1`);
  const fixtures = textOf(options, 'fixtures');
  if (fixtures !== undefined && fixtures.value === '')
    throw new CliUsageError(`${fixtures.source} needs the path of a JSON or YAML fixtures file`);
  const demo = switchOf(options, 'demo');
  const seed = textOf(options, 'seed');
  if (!demo && seed?.source === '--seed') throw new CliUsageError('--seed chooses the demo of --demo: pass --demo too');
  const noFlush = options.values.get('no-flush');
  if (inMemory && noFlush?.source === '--no-flush') {
    throw new CliUsageError('--no-flush is about writes to the data file, and --memory writes none: give one of them');
  }
  return {
    kind: 'start',
    port: wholeNumberOf(textOf(options, 'port'), DEFAULT_PORT, 0, 65_535),
    host: host?.value ?? '127.0.0.1',
    data: inMemory ? undefined : resolve(cwd, useData ? data.value : DEFAULT_DATA_FILE),
    flush: noFlush?.value !== true,
    compactAtBytes: compactAtBytes(env),
    rateLimit: optionalNumber(textOf(options, 'rate-limit'), 0),
    maxAccounts: optionalNumber(textOf(options, 'max-accounts'), 1),
    allowedHosts: listOf(options, 'allowed-hosts'),
    cors: listOf(options, 'cors').map((origin) => checkedOrigin(origin, options.values.get('cors')!.source)),
    fixtures: fixtures === undefined ? undefined : resolve(cwd, fixtures.value),
    demoSeed: demo ? wholeNumberOf(seed, 1, 0, 2 ** 32 - 1) : undefined,
    quiet: switchOf(options, 'quiet'),
  };
}

/** The variable that tunes compaction; it has no flag, being a knob for tests and benchmarks. */
const COMPACT_AT_BYTES = 'FFLKIT_SANDBOX_COMPACT_AT_BYTES';

/**
 * The journal size in bytes from which the sandbox folds the journal into the data file, as
 * `FFLKIT_SANDBOX_COMPACT_AT_BYTES` sets it; `undefined` when it is unset or empty (the
 * sandbox's default then applies). A value that is not a whole number of at least 1 is a
 * {@link CliUsageError}.
 */
export function compactAtBytes(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env[COMPACT_AT_BYTES];
  if (text === undefined || text === '') return undefined;
  return wholeNumberOf({ value: text, source: COMPACT_AT_BYTES }, 1, 1, Number.MAX_SAFE_INTEGER);
}

function optionalNumber(found: ReturnType<typeof textOf>, min: number): number | undefined {
  return found === undefined ? undefined : wholeNumberOf(found, min, min, Number.MAX_SAFE_INTEGER);
}

function checkedOrigin(origin: string, source: string): string {
  if (origin === '*' || origin === 'null') return origin;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
    throw new CliUsageError(
      `${source} takes an origin, such as http://localhost:5173 (a scheme, a host and a port, no path), not ${JSON.stringify(origin)}`,
    );
  }
  return origin.replace(/\/$/, '');
}

/** Runs `read`, giving a {@link CliUsageError} it throws the usage line of the command. */
function withUsage<T>(usage: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CliUsageError && error.usage === undefined)
      throw new CliUsageError(error.message, usage, { cause: error });
    throw error;
  }
}

/** The usage lines of the whole CLI, as a wrong command line is answered with them. */
export const USAGE_LINES = `Usage: fflkit-sandbox [options]
       fflkit-sandbox <command> [options]
       (commands: ${SUBCOMMANDS.map(({ name }) => name).join(', ')})`;

/** The text of `fflkit-sandbox --help`. */
export const usageText = `${USAGE_LINES}

Starts a local sandbox of the A&D Logbook Service: the API under /rest/v1 and the sandbox
control API under /_sandbox, saved to one JSON file. GET /_sandbox/health answers once it serves.

Options (each also read from the environment variable named under it; a flag wins over its
variable; a variable that is empty counts as unset; switches take 1, 0, true or false there):
${formatOptions([...START_OPTIONS, HELP_OPTION, VERSION_OPTION])}
Commands (fflkit-sandbox <command> --help for each one's options):
${SUBCOMMANDS.map(({ name, summary }) => `  ${name.padEnd(COMMAND_COLUMN)}${summary}`).join('\n')}

On a new data file the sandbox makes a dealer account with the book Main and prints its token
(unless --fixtures or --demo give accounts). More accounts:
curl -X POST http://127.0.0.1:${DEFAULT_PORT}/_sandbox/accounts
`;
