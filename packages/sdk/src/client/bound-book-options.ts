import type { Clock } from '../transport/clock';
import type { FetchFunction } from '../transport/fetch-function';

/**
 * Options of `new BoundBook(options)`; every one is optional.
 *
 * @example
 * ```ts
 * const bb = new BoundBook({
 *   token: process.env.BOUNDBOOK_TOKEN,
 *   baseUrl: 'https://logbook.example.com/rest/v1',
 *   timeout: 10_000,
 *   maxRetries: 4,
 *   userAgent: 'acme-pos/3.2',
 * });
 * ```
 */
export interface BoundBookOptions {
  /** The service's base address, ending in `/rest/v1`. Defaults to `BOUNDBOOK_BASE_URL`. */
  baseUrl?: string;
  /** The API key, sent as `Authorization: Bearer <token>`. Defaults to `BOUNDBOOK_TOKEN`. */
  token?: string;
  /** The `fetch` to send with; defaults to `globalThis.fetch`, looked up at each request. */
  fetch?: FetchFunction;
  /** Milliseconds each attempt may wait for an answer's headers; `Infinity` for none. Default 30 000. */
  timeout?: number;
  /** Retries after a retryable failure (see the README); `0` for none. Default 2. */
  maxRetries?: number;
  /**
   * Longest `Retry-After`, in seconds, the client waits for; a longer one is thrown at once as a
   * `RateLimitError` (or the status's error). Default 60.
   */
  maxRetryAfter?: number;
  /**
   * The client-side limiter: `true` (the default) for the service's 60 requests per minute per
   * token, `{ perMinute }` for another budget (such as a sandbox's), `false` for none. Clients of
   * the process holding the same token share one queue, and a 429 pauses that queue. At most 1,000,000.
   */
  rateLimit?: boolean | { perMinute: number };
  /** Names your application; sent before the SDK's own name in the `User-Agent`. */
  userAgent?: string;
  /** Time source of time-outs, backoff and the limiter; the real clock by default. */
  clock?: Clock;
  /** Source of the backoff jitter, from 0 (inclusive) to 1 (exclusive); `Math.random` by default. */
  random?: () => number;
}
