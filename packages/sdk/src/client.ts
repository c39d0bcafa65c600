// The client: its options (read from the environment where left out), checked once, and the
// request function that the raw client and every resource call through the transport.
import { sharedRateLimiter } from './rate-limiter';
import { createCall, createRawClient, type RawClient } from './raw-client';
import { Books, Inventory, Receipts, Search, Webhooks } from './resources';
import { createTransport, systemClock, type Clock, type FetchFunction, type Wait } from './transport';

// Set by the build: the package's version. Absent when the sources run as they are (tests).
declare const __FFLKIT_SDK_VERSION__: string | undefined;

/**
 * Options of `new LogbookClient(options)`; every one is optional, and `undefined` means "not given".
 *
 * @example
 * ```ts
 * import { LogbookClient, type LogbookClientOptions } from '@fflkit/sdk';
 *
 * const options: LogbookClientOptions = {
 *   token: process.env['ACME_FFLKIT_TOKEN'], // string | undefined: FFLKIT_TOKEN is read when undefined
 *   baseUrl: 'https://logbook.example.com/rest/v1',
 *   timeout: 10_000,
 *   maxRetries: 4,
 *   userAgent: 'acme-pos/3.2', // User-Agent: acme-pos/3.2 fflkit-sdk/<version>
 * };
 * const logbook = new LogbookClient(options);
 * ```
 */
export interface LogbookClientOptions {
  /**
   * The service's base address, an absolute http(s) URL ending in `/rest/v1` (another is refused
   * at construction). Defaults to `FFLKIT_BASE_URL`.
   */
  baseUrl?: string | undefined;
  /** The API key, sent as `Authorization: Bearer <token>`. Defaults to `FFLKIT_TOKEN`. */
  token?: string | undefined;
  /** The `fetch` to send with; defaults to `globalThis.fetch`, looked up at each request. */
  fetch?: FetchFunction | undefined;
  /** Milliseconds each attempt may wait for an answer's headers; `Infinity` for none. Default 30 000. */
  timeout?: number | undefined;
  /** Retries after a retryable failure (see the README); `0` for none. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Longest `Retry-After`, in seconds, the client waits for; a longer one is thrown at once as a
   * `RateLimitError` (or the status's error). Default 60.
   */
  maxRetryAfter?: number | undefined;
  /**
   * The client-side limiter: `true` (the default) for the service's 60 requests per minute per
   * token, `{ perMinute }` for another budget (such as a sandbox's), `false` for none (unit tests
   * against a mock, which enforces the service's limit itself). Clients of the process holding the
   * same token with the same budget share one queue, whichever build of the SDK made them, and a
   * 429 pauses that queue: give every client of a token the same `rateLimit`. At most 1,000,000.
   */
  rateLimit?: boolean | { perMinute: number } | undefined;
  /**
   * Longest time, in milliseconds, the limiter may hold a call (for the minute's budget or a
   * 429's pause); a call it would hold longer is not sent and rejects at once with a
   * `QueueTimeoutError`. Default `Infinity`: bulk jobs queue.
   */
  maxQueueWait?: number | undefined;
  /**
   * Hears of every wait before an attempt: the limiter's, `Retry-After`'s and the back-off's (see
   * {@link Wait}). By default the client warns once on the console when it holds a call for the
   * limit or a 429; pass `() => {}` for silence.
   */
  onWait?: ((wait: Wait) => void) | undefined;
  /**
   * Recovery of a create, a disposition or a webhook creation after a failure after which the
   * service may have acted (see the README, "Recovery"): `true` (the default) looks for what the
   * attempt may have recorded before sending it again, and needs the read permission; `false`
   * throws such a failure as it is.
   */
  recover?: boolean | undefined;
  /** Names your application; sent before the SDK's own name in the `User-Agent`. */
  userAgent?: string | undefined;
  /** Time source of time-outs, backoff and the limiter; the real clock by default. */
  clock?: Clock | undefined;
  /** Source of the backoff jitter, from 0 (inclusive) to 1 (exclusive); `Math.random` by default. */
  random?: (() => number) | undefined;
}

/**
 * The client of the Logbook Service. Methods return the resource itself (unwrapped from
 * `{"data": ...}`) and throw an `ApiError` subclass for any other answer.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const receipt = await logbook.receipts.get(1042);
 * console.log(receipt.record, receipt.serial_number); // 318 'EXA0012345'
 * for await (const r of logbook.receipts.iterate({ status: 'on_hand', per_page: 200 })) console.log(r.serial_number);
 * ```
 */
export class LogbookClient {
  /** Receipts: list, iterate, get, create, update, dispose, delete, changesSince. */
  declare readonly receipts: Receipts;
  /** Logbooks. */
  declare readonly books: Books;
  /** The on-hand inventory. */
  declare readonly inventory: Inventory;
  /** Search of receipts. */
  declare readonly search: Search;
  /** Webhook endpoints. */
  declare readonly webhooks: Webhooks;
  /** openapi-fetch's typed calls (`GET`, `PUT`, `POST`, `DELETE`), for anything else; they share this client's policy. */
  declare readonly raw: RawClient;

  constructor(options: LogbookClientOptions = {}) {
    // Deno without --allow-env refuses to read the environment: the messages name the permission.
    let refused = '';
    const readEnv = (name: string): string | undefined => {
      try {
        const { process, Deno } = globalThis as {
          process?: { env?: Record<string, string | undefined> };
          Deno?: { env: { get(name: string): string | undefined } };
        };
        return (process?.env ? process.env[name] : Deno?.env.get(name)) || undefined;
      } catch (error) {
        refused = ` (reading it was refused: ${String(error)}; grant --allow-env=FFLKIT_TOKEN,FFLKIT_BASE_URL)`;
        return undefined;
      }
    };
    const token = options.token ?? readEnv('FFLKIT_TOKEN');
    const baseUrl = options.baseUrl ?? readEnv('FFLKIT_BASE_URL');
    if (!token) throw new TypeError(`[@fflkit/sdk] no API token: pass { token } or set FFLKIT_TOKEN${refused}`);
    if (!/^https?:\/\/.+\/rest\/v1\/?$/.test(baseUrl ?? '')) {
      throw new TypeError(
        `[@fflkit/sdk] baseUrl ${baseUrl} is not the service's base address, an absolute http(s) URL ending in /rest/v1 (the sandbox's apiUrl): pass { baseUrl } or set FFLKIT_BASE_URL${refused}`,
      );
    }
    const { clock = systemClock, recover = true } = options;
    const send = createTransport(options, (perMinute) => sharedRateLimiter(token, perMinute, clock));
    const version = typeof __FFLKIT_SDK_VERSION__ === 'string' ? __FFLKIT_SDK_VERSION__ : '0.0.0-dev';
    const call = createCall(
      baseUrl as string,
      {
        Authorization: `Bearer ${token}`,
        'User-Agent': `${options.userAgent ? `${options.userAgent} ` : ''}fflkit-sdk/${version}`,
      },
      send,
    );
    const context = { call, clock, recover };
    this.raw = createRawClient(call);
    this.receipts = new Receipts(context);
    this.books = new Books(context);
    this.inventory = new Inventory(context);
    this.search = new Search(context);
    this.webhooks = new Webhooks(context);
  }
}
