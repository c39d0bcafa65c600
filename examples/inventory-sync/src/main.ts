import { LogbookClient, type FetchFunction } from '@fflkit/sdk';
import { createProgress } from './create-progress';
import { describeFailure } from './describe-failure';
import { formatSummary } from './format-summary';
import { parseArgs } from './parse-args';
import { runSync } from './run-sync';
import { USAGE_TEXT } from './usage-text';

/** The process around {@link main}: passed in, so that tests run it in-process. */
export interface MainContext {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** Ctrl-C: stops the sync after saving what it pulled. */
  readonly signal?: AbortSignal;
  /** The `fetch` the SDK sends with; the global one by default. */
  readonly fetch?: FetchFunction;
}

/**
 * The `inventory-sync` command: parses the arguments, runs one sync, reports it on stderr and
 * resolves with the exit code (0 done, 1 failed, 2 wrong option, 130 interrupted).
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function main(args: readonly string[], context: MainContext): Promise<number> {
  const { stderr, signal } = context;
  let baseUrl = '';
  try {
    const command = parseArgs(args, context.env);
    if (command.kind === 'help') {
      context.stdout.write(USAGE_TEXT);
      return 0;
    }
    baseUrl = command.baseUrl;
    const logbook = new LogbookClient({
      token: command.token,
      baseUrl,
      userAgent: 'inventory-sync',
      ...(context.fetch !== undefined && { fetch: context.fetch }),
    });
    const report = await runSync({
      receipts: logbook.receipts,
      baseUrl,
      checkpointPath: command.checkpoint,
      output: command.out === '-' ? context.stdout : command.out,
      ...(command.book !== undefined && { book: command.book }),
      progress: createProgress(stderr),
      ...(signal !== undefined && { signal }),
    });
    stderr.write(`${formatSummary(report, command.out, command.book)}\n`);
    return 0;
  } catch (error) {
    if (signal?.aborted === true) {
      stderr.write('inventory-sync: interrupted; what was pulled is saved, and the next run resumes from there\n');
      return 130;
    }
    const failure = describeFailure(error, baseUrl);
    stderr.write(`inventory-sync: ${failure.message}\n`);
    return failure.exitCode;
  }
}
