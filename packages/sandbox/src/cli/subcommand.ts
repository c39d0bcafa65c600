import type { SandboxDelivery, SandboxDeliveryAttempt } from '@fflkit/types';
import { formatOrigin, SandboxControlError } from '../control-client';
import { reasonOf } from '../support/errors';
import { type CliOption, CliUsageError, formatOptions, type ReadOptions, textOf } from './options';

// A subcommand of `fflkit-sandbox` (`export`, `trigger`, `tail`, ...): what each one declares,
// what it is given to run, the options they share (--token, --url), its help, and the words they
// share for a failed call and a delivery attempt. Each lives in a file of its own
// (`<name>-command.ts`) and is listed in the table of arguments.ts.

/** What a subcommand is given to run. */
export interface SubcommandContext {
  /** Its options, read from the command line and the environment. */
  readonly options: ReadOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working directory, against which paths are resolved. */
  readonly cwd: string;
  /** Aborted when the user stops the command (SIGINT, SIGTERM). */
  readonly signal: AbortSignal;
  /** Writes to standard output. */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
}

/**
 * A subcommand. To add one, write it in a file of its own, exporting one of these, and add it
 * to `SUBCOMMANDS` in arguments.ts: the top-level help lists it, `fflkit-sandbox NAME` runs
 * it, and `fflkit-sandbox NAME --help` prints its help.
 */
export interface Subcommand {
  /** The word that names it on the command line. */
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  /** Its arguments after its name, for its usage line: `<event> [options]`. */
  readonly usage: string;
  /** What it does, the paragraphs of its help, each line at most 95 characters. */
  readonly description: string;
  /** How many positional arguments it takes at most (0 unless told). */
  readonly positionals?: number;
  /** Its options, besides `--help`. */
  readonly options: readonly CliOption[];
  /**
   * Runs it, resolving with the exit code. A {@link CliUsageError} it throws is answered with
   * its usage and exit code 2.
   */
  run(context: SubcommandContext): Promise<number>;
}

/** The help of every command: `--help` and `-h`. */
export const HELP_OPTION: CliOption = { flag: 'help', short: 'h', kind: 'switch', help: ['Show this help'] };

/** `--token`: a token of the account a subcommand acts on. */
export const TOKEN_OPTION: CliOption = {
  flag: 'token',
  kind: 'value',
  placeholder: '<token>',
  variable: 'FFLKIT_SANDBOX_TOKEN',
  help: ['A token of the account (sbx_...)'],
};

/** `--url`: the sandbox a subcommand speaks to. */
export const URL_OPTION: CliOption = {
  flag: 'url',
  kind: 'value',
  placeholder: '<url>',
  variable: 'FFLKIT_SANDBOX_URL',
  help: [
    "The sandbox's address (default http://127.0.0.1:4010, or the host",
    'and port that FFLKIT_SANDBOX_HOST and FFLKIT_SANDBOX_PORT',
    'give a sandbox started with the same environment)',
  ],
};

/** The default port of the sandbox, as the start command listens. */
export const DEFAULT_PORT = 4010;

/** The sandbox and the token a subcommand acts with. */
export interface SandboxAddress {
  /** The sandbox's origin, such as `http://127.0.0.1:4010`. */
  readonly origin: string;
  readonly token: string;
}

/**
 * The sandbox (`--url`, else the address a sandbox started with the same environment listens
 * on) and the token (`--token`, required) of a subcommand.
 */
export function sandboxAddress(
  options: ReadOptions,
  env: Readonly<Record<string, string | undefined>>,
): SandboxAddress {
  const token = textOf(options, 'token');
  if (token === undefined || token.value.trim() === '') {
    throw new CliUsageError('--token is required (or FFLKIT_SANDBOX_TOKEN): a token of the account, sbx_...');
  }
  const url = textOf(options, 'url');
  if (url === undefined) {
    const host = env['FFLKIT_SANDBOX_HOST'] || '127.0.0.1';
    const port = env['FFLKIT_SANDBOX_PORT'] || String(DEFAULT_PORT);
    return { origin: formatOrigin(host, Number(port)), token: token.value.trim() };
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.value);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new CliUsageError(
      `${url.source} must be the sandbox's http(s) address, such as http://127.0.0.1:4010, not ${JSON.stringify(url.value)}`,
    );
  }
  return { origin: parsed.origin, token: token.value.trim() };
}

/** The text of `fflkit-sandbox NAME --help`. */
export function formatSubcommandHelp(command: Subcommand): string {
  return `Usage: fflkit-sandbox ${command.name} ${command.usage}

${command.description}
Options (a flag wins over its environment variable):
${formatOptions([...command.options, HELP_OPTION])}`;
}

/**
 * What to tell the user when a control call failed: the sandbox's own words for a refused call,
 * with what to do for the refusals a subcommand meets most (a token refused, a sandbox absent).
 */
export function describeFailure(error: unknown, origin: string): string {
  if (!(error instanceof SandboxControlError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 0) {
    return `no sandbox answers at ${origin}: start one (fflkit-sandbox), or pass its address with --url`;
  }
  if (error.status === 401) {
    return `the sandbox at ${origin} refused the token: it is unknown there, revoked, or of a deleted account; pass a token of the account with --token`;
  }
  const message = (error.body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? `the sandbox answered ${error.status}: ${message}` : reasonOf(error);
}

/**
 * One line for an attempt of a delivery (its first unless told): the event, the endpoint, and
 * what came of it, with when it is tried again when it failed; as `trigger` and `tail` print it.
 */
export function describeAttempt(
  delivery: SandboxDelivery,
  urls: ReadonlyMap<number, string>,
  attempt: SandboxDeliveryAttempt | undefined = delivery.attempts[0],
): string {
  const endpoint = urls.get(delivery.webhook_id) ?? `endpoint ${delivery.webhook_id}`;
  return `${delivery.event} ${endpoint} ${describeOutcome(delivery, attempt)}`;
}

function describeOutcome(delivery: SandboxDelivery, attempt: SandboxDeliveryAttempt | undefined): string {
  if (attempt === undefined) return `not attempted (${delivery.state})`;
  const took = `${Math.round(attempt.duration_ms)} ms`;
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  if (ok) return `${attempt.status_code} delivered in ${took}`;
  const why =
    attempt.status_code === null
      ? (attempt.error ?? 'no answer').replace(/\.$/, '')
      : `answered ${attempt.status_code}`;
  const isLast = delivery.attempts[delivery.attempts.length - 1] === attempt;
  const next = !isLast
    ? ''
    : delivery.state === 'pending' && delivery.next_attempt_at !== null
      ? `; next attempt at ${delivery.next_attempt_at}`
      : `; the delivery is ${delivery.state}`;
  return `failed after ${took}: ${why}${next}`;
}
