import { rateLimitProblem } from '@fflkit/sandbox-core';
import type { SandboxFixtures } from '@fflkit/types';
import { connectSandbox, type SandboxControl } from './control-client';
import { createSandbox } from './sandbox';
import { misuseError } from './support/errors';

/** Options of {@link startSandbox}; every one is optional, and `undefined` means its default. */
export interface StartSandboxOptions {
  /** Port to listen on; defaults to `0`, any free port (read it from `url`). */
  port?: number | undefined;
  /** Interface to listen on; defaults to `127.0.0.1`. */
  host?: string | undefined;
  /** Path of a JSON data file to load and save; by default the state lives in memory only. */
  data?: string | undefined;
  /**
   * Whether each write to the data file reaches the disk (`fdatasync`) before its request is
   * answered, so that it survives the machine stopping, not only the sandbox. `true` by default;
   * `false` answers faster, for a data file nobody needs after a crash of the machine.
   */
  flush?: boolean | undefined;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number | undefined;
  /** Wall clock in milliseconds since the epoch; each account's clock adds its own offset. */
  now?: (() => number) | undefined;
  /** The most accounts the sandbox holds; 10,000 by default. */
  maxAccounts?: number | undefined;
  /**
   * Host names the sandbox answers to besides `localhost`, IP addresses and `host` (a CI
   * service name, a LAN name; `.example.com` for a domain and its subdomains).
   */
  allowedHosts?: readonly string[] | undefined;
  /** Origins allowed to call the sandbox from a browser, with CORS (such as `http://localhost:5173`). */
  cors?: readonly string[] | undefined;
  /**
   * A fixtures file to load before the sandbox listens: the file as an object, or the path of a
   * JSON or YAML file. Loaded again at every start on a data file, which changes nothing the
   * second time. A file with any fault rejects the start with a `FixturesError`.
   */
  fixtures?: SandboxFixtures | string | undefined;
}

/**
 * A running sandbox, as {@link startSandbox} resolves it: the typed control API of
 * {@link connectSandbox}, and `stop()`.
 */
export interface RunningSandbox extends SandboxControl {
  /** Stops the server and saves what changed; resolves when both are done. */
  stop(): Promise<void>;
}

/**
 * Starts a sandbox for a test suite: in memory on a free port unless told otherwise. It reads
 * no environment variable (the CLI's `FFLKIT_SANDBOX_*` are the CLI's own): what it does is
 * what the options say.
 *
 * @example
 * ```ts
 * import { startSandbox } from '@fflkit/sandbox';
 *
 * const sandbox = await startSandbox();
 * const { token } = await sandbox.createAccount({ account_type: 'dealer' });
 * const response = await fetch(`${sandbox.apiUrl}/books`, {
 *   headers: { Authorization: `Bearer ${token}` },
 * });
 * response.status; // 200: { data: [{ name: 'Main', record_count: 0, ... }] }
 * await sandbox.stop();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  assertWholeNumber('port', options.port, 65_535);
  const rateProblem = rateLimitProblem(options.rateLimit);
  if (rateProblem !== undefined) throw misuseError(`startSandbox(): ${rateProblem}`);
  assertWholeNumber('maxAccounts', options.maxAccounts, Number.MAX_SAFE_INTEGER);
  assertNames('allowedHosts', options.allowedHosts);
  assertNames('cors', options.cors);
  if (options.data !== undefined && (typeof options.data !== 'string' || options.data === '')) {
    throw misuseError('startSandbox(): data must be a file path; omit it to stay in memory');
  }
  if (options.flush !== undefined && typeof options.flush !== 'boolean') {
    throw misuseError('startSandbox(): flush must be true or false');
  }
  const { fixtures } = options;
  if (
    fixtures !== undefined &&
    (typeof fixtures === 'string'
      ? fixtures === ''
      : typeof fixtures !== 'object' || fixtures === null || Array.isArray(fixtures))
  ) {
    throw misuseError(
      'startSandbox(): fixtures must be a fixtures file as an object ({ accounts: [...] }) or the path of a JSON or YAML file',
    );
  }
  const sandbox = await createSandbox({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    data: options.data,
    flush: options.flush,
    rateLimit: options.rateLimit,
    now: options.now,
    maxAccounts: options.maxAccounts,
    allowedHosts: options.allowedHosts,
    cors: options.cors,
    fixtures,
  });
  try {
    await sandbox.start();
  } catch (error) {
    // A port in use: the data file's lock and the journal are given back before rejecting.
    await sandbox.stop().catch(() => undefined);
    throw error;
  }
  return { ...connectSandbox(sandbox.origin), stop: () => sandbox.stop() };
}

function assertWholeNumber(name: string, value: number | undefined, max: number): void {
  if (value === undefined || (Number.isInteger(value) && value >= 0 && value <= max)) return;
  throw misuseError(`startSandbox(): ${name} must be a whole number from 0 to ${max}, not ${String(value)}`);
}

function assertNames(name: string, value: readonly string[] | undefined): void {
  if (
    value === undefined ||
    (Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== ''))
  )
    return;
  throw misuseError(`startSandbox(): ${name} must be a list of names, such as ['ci-sandbox']`);
}
