import {
  type ActivityEvent,
  type ControlCalls,
  type ControlFailure,
  createControlCalls,
  createControlClient,
  fetchSend,
  parseJson,
  readActivityEvents,
} from '@fflkit/sandbox-core/control';
import type { SandboxHealth } from '@fflkit/types';
import { misuseError, packageMessage } from './support/errors';

// The control API of a running sandbox (`/_sandbox`): what `connectSandbox()` and
// `startSandbox()` resolve to, and the error a refused call rejects with. The calls are
// `@fflkit/sandbox-core/control`'s, sent with `fetch`: it speaks to the sandbox over HTTP only,
// so it works as well against a sandbox started in another process.

/**
 * The sandbox's control API (`/_sandbox`, documented in `@fflkit/types/sandbox.yaml`) as typed
 * calls, with the sandbox's address, its health and its event stream. Every call but
 * `createAccount` and `fixtures.load` acts on the account of the token it is given. A refused call
 * rejects with a {@link SandboxControlError}.
 *
 * @example
 * ```ts
 * import { connectSandbox, type SandboxControl } from '@fflkit/sandbox';
 *
 * const sandbox: SandboxControl = connectSandbox('http://127.0.0.1:4010');
 * const { token } = await sandbox.createAccount(); // a dealer with the book Main, and its token 'sbx_...'
 * const [latest] = await sandbox.deliveries.list(token); // newest first; undefined before any event
 * const [endpoint] = await sandbox.webhooks.list(token);
 * const { chaos } = await sandbox.webhooks.setChaos(token, endpoint!.id, { reorder: { window: 4 }, duplicate: 1, seed: 5 });
 * chaos?.seed; // 5: the same seed and the same events give the same run
 * ```
 */
export interface SandboxControl extends ControlCalls {
  /** The origin, such as `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The service API's base address: `url + '/rest/v1'`. */
  readonly apiUrl: string;
  /**
   * `GET /_sandbox/health`: `{ status: 'ok', version }` once the sandbox serves; rejects with
   * status `0` while nothing answers at the URL.
   */
  health(): Promise<SandboxHealth>;
  /**
   * `GET /_sandbox/events`: the account's service API requests and webhook deliveries as they
   * happen (a delivery each time it is made and each time it is attempted), until `signal` is
   * aborted (the iteration then ends) or the sandbox stops (it ends too). Rejects with a
   * {@link SandboxControlError}: its status for a refused token, `0` when the connection is lost.
   *
   * @example
   * ```ts
   * import { connectSandbox } from '@fflkit/sandbox';
   *
   * const sandbox = connectSandbox('http://127.0.0.1:4010');
   * const { token } = await sandbox.createAccount();
   * const signal = AbortSignal.timeout(60_000); // follow for a minute
   * for await (const { event, data } of sandbox.events(token, { signal })) {
   *   if (event === 'request') console.log(data.method, data.path, data.status); // POST /rest/v1/receipts 201
   *   else console.log(data.event, data.state, data.attempts.length); // receipt.created succeeded 1
   * }
   * ```
   */
  events(token: string, options?: { signal?: AbortSignal | undefined }): AsyncIterable<ActivityEvent>;
}

/**
 * A call of the sandbox's control API that was not answered with success, or whose answer cannot
 * be trusted (a request log that dropped entries the filter could match, answered 200): carries
 * the status and the body (the contract's error body `{ message }`, plus `errors` for a 422).
 *
 * @example
 * ```ts
 * import { connectSandbox, SandboxControlError } from '@fflkit/sandbox';
 *
 * const sandbox = connectSandbox('http://127.0.0.1:4010');
 * const { token } = await sandbox.createAccount();
 * try {
 *   await sandbox.clock.advance(token, 0);
 * } catch (error) {
 *   if (error instanceof SandboxControlError) console.error(error.status, error.body); // 422 { message, errors: { seconds: [...] } }
 * }
 * ```
 */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  /** The status answered; `0` when no answer came. */
  readonly status: number;
  /** The body answered, parsed when it was JSON. */
  readonly body: unknown;

  /** `message` says what went wrong and what to do next; the package's prefix is added here. */
  constructor(status: number, body: unknown, message: string, options?: ErrorOptions) {
    super(packageMessage(message), options);
    this.status = status;
    this.body = body;
  }
}

/** Options of {@link connectSandbox}. */
export interface ConnectSandboxOptions {
  /** The `fetch` to call the control API with; defaults to the global one, looked up per call. */
  fetch?: typeof fetch | undefined;
}

/**
 * Typed calls of the control API of a sandbox that is already running, known by its origin: a
 * sandbox started by a vitest global setup and handed to test workers as a URL, or one started
 * with `pnpm start` or `fflkit-sandbox`.
 *
 * @example
 * ```ts
 * // a test file, beside a vitest global setup that ran startSandbox() and provided its url
 * import { connectSandbox } from '@fflkit/sandbox';
 * import { inject } from 'vitest';
 *
 * declare module 'vitest' {
 *   export interface ProvidedContext { sandboxUrl: string }
 * }
 *
 * const sandbox = connectSandbox(inject('sandboxUrl'));
 * const { token } = await sandbox.createAccount({ books: ['Consignment'] });
 * await sandbox.clock.advance(token, 60); // the first retry of a failed delivery falls due
 * const [delivery] = await sandbox.deliveries.list(token);
 * ```
 */
export function connectSandbox(url: string, options: ConnectSandboxOptions = {}): SandboxControl {
  const origin = readOrigin(url);
  const fail = ({ status, body, message, cause }: ControlFailure): SandboxControlError =>
    new SandboxControlError(status, body, message, { cause });
  const client = createControlClient({ send: fetchSend(origin, options.fetch), fail, target: origin });

  /** Follows the event stream of `token`'s account, one parsed event at a time. */
  async function* follow(
    token: string,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ActivityEvent, void, undefined> {
    const call = 'GET /_sandbox/events';
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(`${origin}/_sandbox/events`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        signal: signal ?? null,
      });
    } catch (error) {
      if (signal?.aborted === true) return;
      throw fail({
        status: 0,
        body: undefined,
        message: `${call}: no answer from ${origin}; is the sandbox running?`,
        cause: error,
      });
    }
    if (!response.ok || response.body === null) {
      const text = await response.text();
      const parsed: unknown = text === '' ? undefined : parseJson(text);
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw fail({
        status: response.status,
        body: parsed,
        message: `${call} answered ${response.status}: ${typeof message === 'string' ? message : text}`,
      });
    }
    try {
      yield* readActivityEvents(response.body);
    } catch (error) {
      if (signal?.aborted === true) return;
      throw fail({
        status: 0,
        body: undefined,
        message: `${call}: the connection to ${origin} was lost`,
        cause: error,
      });
    }
  }

  return {
    ...createControlCalls(client, fail),
    url: origin,
    apiUrl: `${origin}/rest/v1`,
    health: async () => (await client.call('get', '/_sandbox/health')).data,
    events: (token, { signal } = {}) => ({ [Symbol.asyncIterator]: () => follow(token, signal) }),
  };
}

/**
 * The origin a client uses to reach a server listening on `host` and `port`: a wildcard address
 * becomes the loopback address of its family, and an IPv6 address is bracketed.
 */
export function formatOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function readOrigin(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw misuseError(
      `connectSandbox(): url must be the sandbox's http(s) origin, such as http://127.0.0.1:4010; got ${JSON.stringify(url)}`,
    );
  }
  return parsed.origin;
}
