import type { SandboxFixturesLoaded } from '@fflkit/types';
import type { Request } from '@hapi/hapi';
import type { DemoAccount } from '../demo/demo-account';
import { FixturesError } from '../fixtures-file';
import { DataFileError } from '../persistence/data-file';
import type { Sandbox } from '../sandbox';
import { SANDBOX_VERSION } from '../version';
import { CliUsageError, parseCliArguments, type StartOptions, USAGE_LINES } from './arguments';
import type { ReadOptions } from './options';
import type { Subcommand } from './subcommand';
import { reasonOf } from '../support/errors';

// The program of `fflkit-sandbox`, bundled with every dependency into `dist/cli-program.cjs`
// and run by the launcher: it reads the command line, runs a subcommand, or starts the sandbox
// and speaks to the terminal (the banner, a line per request, the reason of a failed start, the
// exit code).

/** Exit code for a wrong command line, as most Unix tools use it. */
const USAGE_EXIT_CODE = 2;

/** How {@link runCli} ends: with a sandbox serving, or with the command answered. */
export type CliOutcome = 'serving' | 'done';

/**
 * Runs `fflkit-sandbox`: reads the flags (and, for those not given, their environment
 * variables), then either runs a subcommand, resolving once it is done with its exit code in
 * `process.exitCode`, or starts the sandbox: loads the fixtures and the demo account, prints the
 * banner (and one line per request unless `--quiet`), and on SIGINT or SIGTERM stops listening,
 * saves what is pending and exits 0. A wrong command line exits 2 with the usage; a sandbox that
 * cannot start (port taken, unreadable data file, faulty fixtures) exits 1 with the reason.
 * Resolves with `'serving'` once the banner is printed, or with `'done'` once the command is
 * answered.
 */
export async function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): Promise<CliOutcome> {
  let command;
  try {
    command = parseCliArguments(args, env, cwd);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    reportUsageError(
      error,
      args[0] !== undefined && !args[0].startsWith('-') && error.usage !== undefined ? args[0] : undefined,
    );
    return 'done';
  }
  if (command.kind === 'help') {
    process.stdout.write(command.text);
    return 'done';
  }
  if (command.kind === 'version') {
    process.stdout.write(`${SANDBOX_VERSION}\n`);
    return 'done';
  }
  if (command.kind === 'subcommand') {
    await runSubcommand(command.command, command.options, env, cwd);
    return 'done';
  }
  return start(command);
}

/** Prints a wrong command line's reason, the usage and where the help is, and sets exit code 2. */
function reportUsageError(error: CliUsageError, subcommand: string | undefined): void {
  const name = subcommand === undefined ? 'fflkit-sandbox' : `fflkit-sandbox ${subcommand}`;
  process.stderr.write(
    `${name}: ${error.message}\n${error.usage ?? USAGE_LINES}\nRun ${name} --help for the options.\n`,
  );
  process.exitCode = USAGE_EXIT_CODE;
}

/**
 * Runs a subcommand until it resolves with its exit code; SIGINT and SIGTERM abort its signal
 * (a second one exits at once).
 */
async function runSubcommand(
  command: Subcommand,
  options: ReadOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<void> {
  const controller = new AbortController();
  const stop = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    process.exitCode = await command.run({
      options,
      env,
      cwd,
      signal: controller.signal,
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  } catch (error) {
    if (error instanceof CliUsageError) {
      reportUsageError(
        new CliUsageError(error.message, `Usage: fflkit-sandbox ${command.name} ${command.usage}`),
        command.name,
      );
      return;
    }
    process.stderr.write(`fflkit-sandbox ${command.name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Starts the sandbox, as `fflkit-sandbox [options]` asks. */
async function start(command: StartOptions): Promise<CliOutcome> {
  // Signals are caught before anything starts, so that none arriving during startup is lost.
  let sandbox: Sandbox | undefined;
  let stopRequested = false;
  const shutdown = (): void => {
    stopRequested = true;
    sandbox?.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`fflkit-sandbox: could not save on exit: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  let token: string | undefined;
  let demo: DemoAccount | undefined;
  try {
    // Loaded only now, so that --help, the subcommands and a wrong command line answer without
    // loading the server.
    const { createSandbox } = await import('../sandbox');
    sandbox = await createSandbox(command);
    if (command.demoSeed !== undefined) {
      const { addDemoAccount } = await import('../demo/demo-account');
      demo = await addDemoAccount(sandbox, command.demoSeed);
    }
    await sandbox.start();
    // Fixtures and the demo give the accounts to use: no other is made for them.
    if (sandbox.fresh && command.fixtures === undefined && demo === undefined)
      ({ token } = await sandbox.createAccount());
  } catch (error) {
    process.stderr.write(`fflkit-sandbox: ${startFailure(error, command.port)}\n`);
    await sandbox?.stop().catch(() => undefined);
    process.exit(1);
  }
  if (stopRequested) {
    shutdown();
    return 'done';
  }
  if (!command.quiet) sandbox.server.events.on('response', logRequest);
  sandbox.server.events.on({ name: 'request', channels: 'error' }, (_request, event) => {
    process.stderr.write(`fflkit-sandbox: ${String(event.error)}\n`);
  });
  const fixtures =
    command.fixtures === undefined || sandbox.fixturesLoaded === undefined
      ? undefined
      : { file: command.fixtures, loaded: sandbox.fixturesLoaded };
  process.stdout.write(
    formatStartBanner({ origin: sandbox.origin, data: command.data, fresh: sandbox.fresh, token, fixtures, demo }),
  );
  return 'serving';
}

/** What the start banner reports. */
export interface StartBannerInput {
  /** `http://host:port`. */
  origin: string;
  /** Absolute path of the data file, or `undefined` in memory. */
  data: string | undefined;
  /** Whether the data file is new; by default, whether an account was made (`token`). */
  fresh?: boolean | undefined;
  /** The token of the account made at start, on a new data file or in memory. */
  token: string | undefined;
  /** The fixtures file loaded, and what it added. */
  fixtures?: { readonly file: string; readonly loaded: SandboxFixturesLoaded } | undefined;
  /** The demo account, when `--demo` asked for it. */
  demo?: DemoAccount | undefined;
}

/**
 * The text the CLI prints once it listens: the API's base URL, the console's link (signed in with
 * the token of the account it just made, or of the demo account) and where the data lives; what
 * the fixtures added and the demo account with its token, when asked for; then either the token
 * of the account it just made with a ready `curl` line, or (on an existing data file, whose
 * first token was printed when it was made) how to make a new account.
 */
export function formatStartBanner({
  origin,
  data,
  fresh = undefined,
  token,
  fixtures,
  demo,
}: StartBannerInput): string {
  const apiUrl = `${origin}/rest/v1`;
  const signIn = token ?? demo?.token;
  const blocks: string[][] = [
    [
      `FFLKit sandbox listening on ${apiUrl}`,
      `Control API: ${origin}/_sandbox`,
      // The token rides in the fragment, which the browser never sends: it reaches no server or log.
      `Console: ${origin}/${signIn === undefined ? '' : `#token=${signIn}`}`,
      data === undefined
        ? 'Data: in memory only; nothing is saved.'
        : `Data: ${data}${(fresh ?? token !== undefined) ? ' (new file)' : ''}`,
    ],
  ];
  if (fixtures !== undefined) {
    blocks.push([
      `Fixtures: ${fixtures.file}`,
      ...fixtures.loaded.accounts.map((account) => {
        const receipts = `${account.receipts} ${account.receipts === 1 ? 'receipt' : 'receipts'}`;
        return account.created
          ? `  made account ${account.id}, ${account.name}, with ${receipts}`
          : `  account ${account.id}, ${account.name}, was there: ${account.receipts === 0 ? 'nothing added' : `${receipts} added`}`;
      }),
      'Use the tokens of the fixtures file.',
    ]);
  }
  if (demo !== undefined) {
    blocks.push(
      [
        `Demo account ${demo.name} (seed ${demo.seed})${demo.created ? '' : ', from the data file'}:`,
        `  books ${demo.books.join(', ')}; ${demo.receipts} receipts, ${demo.disposed} disposed${demo.created ? `, ${demo.corrected} corrected` : ''}`,
        `  webhook endpoint ${demo.webhook.url} (all events), secret ${demo.webhook.secret}`,
        'Its token, the same for the same seed:',
      ],
      [`  ${demo.token}`],
      ['Try it:'],
      [`  curl -H "Authorization: Bearer ${demo.token}" "${apiUrl}/receipts?per_page=5"`],
    );
  }
  if (token !== undefined) {
    blocks.push(
      ['Made a dealer account with the book Main. Its token is shown only now:'],
      [`  ${token}`],
      ['Try it:'],
      [`  curl -H "Authorization: Bearer ${token}" ${apiUrl}/books`],
    );
  } else if (fixtures === undefined && demo === undefined) {
    blocks.push(
      [
        'The token of the first account was printed when the data file was created.',
        'To make a new account with its own token:',
      ],
      [`  curl -X POST ${origin}/_sandbox/accounts`],
    );
  }
  blocks.push(['Press Ctrl-C to stop.']);
  return `${blocks.map((block) => block.join('\n')).join('\n\n')}\n`;
}

function logRequest(request: Request): void {
  const { response } = request;
  const status = response === null ? '-' : 'isBoom' in response ? response.output.statusCode : response.statusCode;
  const elapsed = Date.now() - request.info.received;
  process.stdout.write(`${request.method.toUpperCase()} ${request.path} ${status} ${elapsed} ms\n`);
}

function startFailure(error: unknown, port: number): string {
  if (error instanceof DataFileError || error instanceof FixturesError) return reasonOf(error);
  const { code, syscall } = (error as NodeJS.ErrnoException | undefined) ?? {};
  if (code === 'EADDRINUSE') {
    return `port ${port} is already in use: stop the other server or pass --port <number>`;
  }
  // Only a refused listen is about the port: an EACCES of a file says its own path.
  if (code === 'EACCES' && syscall === 'listen') return `no permission to listen on port ${port}: pass --port <number>`;
  if (code === 'EADDRNOTAVAIL') return 'the --host address is not an address of this machine';
  return `could not start: ${error instanceof Error ? error.message : String(error)}`;
}
