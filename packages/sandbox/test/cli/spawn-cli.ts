import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { inject } from 'vitest';

/**
 * How long a test under vitest's 5 s per test waits for a line (`waitFor`'s `withinMs`), so that a
 * missing line fails it by naming the line rather than by the test timing out.
 */
export const WAIT_FOR_MS = 4_500;

/** A running CLI process with its output so far. */
export interface CliProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /**
   * Resolves with the first match of `pattern` on stdout (or stderr), as soon as it is printed;
   * rejects, with what was printed, when the process ends first or `withinMs` pass (no limit by
   * default: tests with long time-outs wait on slow steps; see {@link WAIT_FOR_MS}).
   */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', withinMs?: number): Promise<RegExpMatchArray>;
  /** Resolves when the process ends. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns the CLI (bundled from the sources by the global setup) with `args` in `cwd`, with
 * `env` added to the environment.
 */
export function spawnCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [inject('cliBundle'), ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const listener of listeners) listener();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal });
    });
  });
  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout', withinMs = Number.POSITIVE_INFINITY) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const fail = (why: string) => {
        listeners.delete(check);
        clearTimeout(timer);
        reject(new Error(`The CLI ${why} ${pattern} on ${stream}.\nstdout: ${out}\nstderr: ${err}`));
      };
      const check = () => {
        const match = (stream === 'stdout' ? out : err).match(pattern);
        if (match !== null) {
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          fail('ended before printing');
        }
      };
      const timer =
        withinMs === Number.POSITIVE_INFINITY
          ? undefined
          : setTimeout(() => fail(`printed, within ${withinMs} ms, no match of`), withinMs);
      listeners.add(check);
      check();
    });
  return { child, stdout: () => out, stderr: () => err, waitFor, exit };
}

/** The API base URL the CLI printed, such as `http://127.0.0.1:4010/rest/v1`. */
export async function waitForApiUrl(cli: CliProcess): Promise<string> {
  const [, apiUrl] = await cli.waitFor(/listening on (http:\/\/\S+\/rest\/v1)\n/);
  return apiUrl!;
}

/** Kills the CLI with SIGKILL unless it has ended already, and resolves once it has ended. */
export async function killIfRunning(cli: CliProcess | undefined): Promise<void> {
  if (cli === undefined || cli.child.exitCode !== null || cli.child.signalCode !== null) return;
  cli.child.kill('SIGKILL');
  await cli.exit;
}
