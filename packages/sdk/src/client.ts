// The client: its options (read from the environment where left out), checked once, and the
// openapi-fetch client that every resource calls through the transport.
import type { paths } from '@boundbook/types';
import openapiFetch from 'openapi-fetch';
import { sharedRateLimiter } from './rate-limiter';
import { Books, Inventory, Receipts, Search, Webhooks, type RawClient } from './resources';
import { createTransport, PlainRequest, systemClock, type Clock, type FetchFunction } from './transport';

// Set by the build: the package's version, and true in the CommonJS build only. There, Node's
// interop makes the default import openapi-fetch's whole `exports` object, whose `default` is
// `createClient`. Both are absent when the sources run as they are (tests).
declare const __BOUNDBOOK_SDK_VERSION__: string | undefined;
declare const __BOUNDBOOK_CJS__: boolean | undefined;

/**
 * Options of `new BoundBook(options)`; every one is optional, and `undefined` means "not given".
 *
 * @example
 * ```ts
 * import { BoundBook, type BoundBookOptions } from '@boundbook/sdk';
 *
 * const options: BoundBookOptions = {
 *   token: process.env['ACME_BOUNDBOOK_TOKEN'], // string | undefined: BOUNDBOOK_TOKEN is read when undefined
 *   baseUrl: 'https://logbook.example.com/rest/v1',
 *   timeout: 10_000,
 *   maxRetries: 4,
 *   userAgent: 'acme-pos/3.2', // User-Agent: acme-pos/3.2 boundbook-sdk/<version>
 * };
 * const bb = new BoundBook(options);
 * ```
 */
export interface BoundBookOptions {
  /** The service's base address, ending in `/rest/v1`. Defaults to `BOUNDBOOK_BASE_URL`. */
  baseUrl?: string | undefined;
  /** The API key, sent as `Authorization: Bearer <token>`. Defaults to `BOUNDBOOK_TOKEN`. */
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
   * token, `{ perMinute }` for another budget (such as a sandbox's), `false` for none. Clients of
   * the process holding the same token share one queue, and a 429 pauses that queue. At most 1,000,000.
   */
  rateLimit?: boolean | { perMinute: number } | undefined;
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
 * import { BoundBook } from '@boundbook/sdk';
 *
 * const bb = new BoundBook(); // the token and base URL from BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL
 * const receipt = await bb.receipts.get(1042);
 * console.log(receipt.record, receipt.serial_number); // 318 'EXA0012345'
 * for await (const r of bb.receipts.iterate({ status: 'on_hand', per_page: 200 })) console.log(r.serial_number);
 * ```
 */
export class BoundBook {
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
  /** The underlying openapi-fetch client, for anything else; it shares this client's policy. */
  declare readonly raw: RawClient;

  constructor(options: BoundBookOptions = {}) {
    const token = options.token ?? readEnv('BOUNDBOOK_TOKEN');
    const baseUrl = options.baseUrl ?? readEnv('BOUNDBOOK_BASE_URL');
    if (!token) throw new TypeError('[@boundbook/sdk] no API token: pass { token } or set BOUNDBOOK_TOKEN');
    if (!baseUrl || !/^https?:\/\/./.test(baseUrl)) {
      throw new TypeError(`[@boundbook/sdk] no absolute baseUrl (${baseUrl}): pass { baseUrl } or set BOUNDBOOK_BASE_URL`);
    }
    const { clock = systemClock } = options;
    const transport = createTransport(options, clock, (perMinute) => sharedRateLimiter(token, perMinute, clock));
    const version = typeof __BOUNDBOOK_SDK_VERSION__ === 'string' ? __BOUNDBOOK_SDK_VERSION__ : '0.0.0-dev';
    const createClient =
      typeof __BOUNDBOOK_CJS__ === 'boolean' && __BOUNDBOOK_CJS__
        ? (openapiFetch as unknown as { default: typeof openapiFetch }).default
        : openapiFetch;
    this.raw = createClient<paths>({
      baseUrl,
      // openapi-fetch builds a PlainRequest and hands it to the transport as it would a Request.
      Request: PlainRequest as unknown as typeof Request,
      fetch: transport as unknown as (request: Request) => Promise<Response>,
      headers: {
        Authorization: `Bearer ${token}`,
        'User-Agent': `${options.userAgent ? `${options.userAgent} ` : ''}boundbook-sdk/${version}`,
      },
    });
    this.receipts = new Receipts(this.raw, clock);
    this.books = new Books(this.raw);
    this.inventory = new Inventory(this.raw);
    this.search = new Search(this.raw);
    this.webhooks = new Webhooks(this.raw);
  }
}

// An environment variable where the runtime has `process.env` (Node, Bun, Deno with Node
// compatibility); `undefined` in browsers and edge runtimes, and where reading it is not allowed.
function readEnv(name: string): string | undefined {
  try {
    const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    return process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}
