import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { inject } from 'vitest';

/** A running CLI process with its output so far. */
export interface CliProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Resolves with the first match of `pattern` on stdout (or stderr), as soon as it is printed. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpMatchArray>;
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
  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout') =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = (stream === 'stdout' ? out : err).match(pattern);
        if (match !== null) {
          listeners.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          listeners.delete(check);
          reject(new Error(`The CLI ended before printing ${pattern}.\nstdout: ${out}\nstderr: ${err}`));
        }
      };
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
