import type { Request } from '@hapi/hapi';
import { DataFileError } from '../persistence/data-file';
import type { Sandbox } from '../sandbox';
import { CliUsageError, parseCliArguments, usageText } from './arguments';

// The program of `boundbook-sandbox`, bundled with every dependency into `dist/cli-program.cjs`
// and run by the launcher: it starts the sandbox and speaks to the terminal (the banner, a line
// per request, the reason of a failed start, the exit code).

/** Exit code for a wrong command line, as most Unix tools use it. */
const USAGE_EXIT_CODE = 2;

/** How {@link runCli} ends: with a sandbox serving, or with the command answered. */
export type CliOutcome = 'serving' | 'done';

/**
 * Runs `boundbook-sandbox`, or its `check-receiver` subcommand (see check-receiver-command.ts):
 * reads the flags, starts the sandbox, prints the banner (and one line
 * per request unless `--quiet`), and on SIGINT or SIGTERM stops listening, saves what is pending
 * and exits 0. A wrong command line exits 2 with a usage hint; a sandbox that cannot start
 * (port taken, unreadable data file) exits 1 with the reason. Resolves with `'serving'` once
 * the banner is printed, or with `'done'` once `--help` or a wrong command line is answered.
 */
export async function runCli(args: readonly string[]): Promise<CliOutcome> {
  if (args[0] === 'check-receiver') {
    const { runCheckReceiverCommand } = await import('./check-receiver-command');
    const io = { env: process.env, out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
    process.exitCode = await runCheckReceiverCommand(args.slice(1), io);
    return 'done';
  }
  let command;
  try {
    command = parseCliArguments(args);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(
      `boundbook-sandbox: ${error.message}\nRun boundbook-sandbox --help for the options.\n`,
    );
    process.exitCode = USAGE_EXIT_CODE;
    return 'done';
  }
  if (command.kind === 'help') {
    process.stdout.write(usageText);
    return 'done';
  }

  // Signals are caught before anything starts, so that none arriving during startup is lost.
  let sandbox: Sandbox | undefined;
  let stopRequested = false;
  const shutdown = (): void => {
    stopRequested = true;
    sandbox?.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`boundbook-sandbox: could not save on exit: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  let token: string | undefined;
  try {
    // Loaded only now, so that --help and a wrong command line answer without loading the server.
    const { createSandbox } = await import('../sandbox');
    sandbox = await createSandbox(command);
    await sandbox.start();
    if (sandbox.fresh) ({ token } = await sandbox.createAccount());
  } catch (error) {
    process.stderr.write(`boundbook-sandbox: ${startFailure(error, command.port)}\n`);
    process.exit(1);
  }
  if (stopRequested) {
    shutdown();
    return 'done';
  }
  if (!command.quiet) sandbox.server.events.on('response', logRequest);
  sandbox.server.events.on({ name: 'request', channels: 'error' }, (_request, event) => {
    process.stderr.write(`boundbook-sandbox: ${String(event.error)}\n`);
  });
  process.stdout.write(formatStartBanner({ origin: sandbox.origin, data: command.data, token }));
  return 'serving';
}

/** What the start banner reports. */
export interface StartBannerInput {
  /** `http://host:port`. */
  origin: string;
  /** Absolute path of the data file, or `undefined` in memory. */
  data: string | undefined;
  /** The token of the account made at start, on a new data file or in memory. */
  token: string | undefined;
}

/**
 * The text the CLI prints once it listens: the API's base URL, the console's link (signed in with
 * the token of the account it just made, when it made one) and where the data lives, then either
 * that token with a ready `curl` line, or (on an existing data file, whose first token was
 * printed when it was made) how to make a new account.
 */
export function formatStartBanner({ origin, data, token }: StartBannerInput): string {
  const apiUrl = `${origin}/rest/v1`;
  const lines = [
    `BoundBook sandbox listening on ${apiUrl}`,
    `Control API: ${origin}/_sandbox`,
    // The token rides in the fragment, which the browser never sends: it reaches no server or log.
    `Console: ${origin}/${token === undefined ? '' : `#token=${token}`}`,
    data === undefined
      ? 'Data: in memory only; nothing is saved.'
      : `Data: ${data}${token === undefined ? '' : ' (new file)'}`,
    '',
  ];
  if (token === undefined) {
    lines.push(
      'The token of the first account was printed when the data file was created.',
      'To make a new account with its own token:',
      '',
      `  curl -X POST ${origin}/_sandbox/accounts`,
    );
  } else {
    lines.push(
      'Made a dealer account with the book Main. Its token is shown only now:',
      '',
      `  ${token}`,
      '',
      'Try it:',
      '',
      `  curl -H "Authorization: Bearer ${token}" ${apiUrl}/books`,
    );
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}

function logRequest(request: Request): void {
  const { response } = request;
  const status =
    response === null ? '-' : 'isBoom' in response ? response.output.statusCode : response.statusCode;
  const elapsed = Date.now() - request.info.received;
  process.stdout.write(`${request.method.toUpperCase()} ${request.path} ${status} ${elapsed} ms\n`);
}

function startFailure(error: unknown, port: number): string {
  if (error instanceof DataFileError) return error.message.replace('[@boundbook/sandbox] ', '');
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return `port ${port} is already in use: stop the other server or pass --port <number>`;
  }
  if (code === 'EACCES') return `no permission to listen on port ${port}: pass --port <number>`;
  if (code === 'EADDRNOTAVAIL') return 'the --host address is not an address of this machine';
  return `could not start: ${error instanceof Error ? error.message : String(error)}`;
}
