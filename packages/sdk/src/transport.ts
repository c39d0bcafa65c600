// How a request goes out: the clock every wait goes through, one attempt with its time-out, and
// the retries with their back-off or `Retry-After`.
import { RATE_LIMIT_PER_MINUTE } from '@boundbook/types';
import type { BoundBookOptions } from './client';
import { assertRange, ConnectionError, parseRetryAfter, TimeoutError } from './errors';

/**
 * The time source of a client: its clock and its timers. Every wait of the SDK (time-outs,
 * backoff, `Retry-After`, the rate limiter) goes through it, so tests drive time by hand.
 *
 * @example
 * ```ts
 * import { BoundBook, systemClock, type Clock } from '@boundbook/sdk';
 *
 * // The real clock, except that each wait is recorded and ends at once.
 * const waits: number[] = [];
 * const clock: Clock = {
 *   ...systemClock,
 *   setTimeout: (callback, ms) => {
 *     waits.push(ms);
 *     return systemClock.setTimeout(callback, 0);
 *   },
 * };
 * const fetch = async () => new Response(null, { status: 503 });
 * const bb = new BoundBook({ token: 'test', baseUrl: 'https://logbook.test/rest/v1', fetch, clock, random: () => 0, timeout: Infinity, rateLimit: false });
 * await bb.books.list().catch((error: unknown) => error); // an InternalServerError, after two retries
 * console.log(waits); // [500, 1000]: the back-offs, without jitter, and no time spent
 * ```
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer that has not fired yet. */
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and the global timers, looked up when called. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/**
 * The `fetch` a client sends with: the global one by default, or one passed in (tests, proxies,
 * instrumentation). It is called as `fetch(url, init)`, the init carrying the method, headers,
 * body and the attempt's `signal`.
 *
 * @example
 * ```ts
 * import { BoundBook, type FetchFunction } from '@boundbook/sdk';
 *
 * const fetch: FetchFunction = async () => Response.json({ data: [] });
 * const bb = new BoundBook({ token: 'test', baseUrl: 'https://logbook.test/rest/v1', fetch });
 * console.log(await bb.books.list()); // []
 * ```
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * What openapi-fetch builds for each call in place of a `Request`: the URL and the init it
 * computed (method, headers, body, signal, redirect), as plain properties. The transport hands
 * them to `fetch`, which builds the one `Request` of each attempt, so a call builds no `Request`
 * (and no `AbortSignal`) that is never sent, and a retry sends the same string body again.
 */
export class PlainRequest {
  declare readonly url: string;
  declare readonly method: string;
  declare readonly headers: Headers;
  declare readonly body: string | null | undefined;
  declare readonly signal: AbortSignal | null | undefined;

  constructor(url: string, init: RequestInit) {
    Object.assign(this, init, { url });
  }
}

/** The part of a rate limiter the transport uses (the limiter itself is in `rate-limiter.ts`). */
export interface Limiter {
  /** `undefined` when the request may start now, else a promise of the moment it may. */
  acquire(signal?: AbortSignal): Promise<void> | undefined;
  /** Holds every request of the token back until `until` (epoch milliseconds). */
  pause(until: number): void;
}

/**
 * The `fetch` that openapi-fetch calls, with the policy `options` set (defaults and ranges as
 * `BoundBookOptions` documents them; a value out of range is a RangeError now): waits for the
 * token's rate limiter, sends with a time-out per attempt, and retries connection errors,
 * time-outs, 408, 429 and 5xx for idempotent methods; a POST is retried on 429 only, the one
 * answer that says the service did not act. Waits follow `Retry-After` (seconds or an HTTP date)
 * or else back off exponentially with jitter. The last answer is returned whatever its status;
 * errors are built from it by the caller. `limiterOf` gives the token's limiter for a budget.
 */
export function createTransport(
  options: BoundBookOptions,
  clock: Clock,
  limiterOf: (perMinute: number) => Limiter,
): (request: PlainRequest) => Promise<Response> {
  const { timeout = 30_000, maxRetries = 2, maxRetryAfter = 60, rateLimit = true } = options;
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const random = options.random ?? Math.random;
  const perMinute = typeof rateLimit === 'object' ? rateLimit.perMinute : RATE_LIMIT_PER_MINUTE;
  assertRange('timeout', timeout, 1);
  assertRange('maxRetries', maxRetries, 0, Infinity, true);
  assertRange('maxRetryAfter', maxRetryAfter, 0);
  assertRange('rateLimit.perMinute', perMinute, 1, 1e6, true);
  // The token's shared queue; none when rate limiting is off.
  const limiter = rateLimit ? limiterOf(perMinute) : undefined;
  return async (request) => {
    const { method, url } = request;
    const signal = request.signal ?? undefined;
    // GET, PUT and DELETE cannot record anything twice: they are retried after any failure.
    const idempotent = !/^(POST|PATCH)$/.test(method);
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      const slot = limiter?.acquire(signal);
      if (slot !== undefined) await slot;
      if (signal?.aborted) throw signal.reason;
      // The attempt's own signal aborts with the call's, or when no answer came within the
      // time-out; the timer stops when the headers arrive.
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort);
      const timer = timeout === Infinity ? undefined : clock.setTimeout(() => controller.abort(), timeout);
      let response: Response | undefined;
      try {
        response = await fetch(url, { ...request, signal: controller.signal } as RequestInit);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        // The call was not aborted, so an aborted attempt is one that timed out.
        if (last || !idempotent) {
          throw controller.signal.aborted
            ? new TimeoutError(`${method} ${url}: no answer in ${timeout} ms (raise timeout or check the network)`, { cause: error })
            : new ConnectionError(
                `${method} ${url}: ${String(error)} on attempt ${retry + 1} (check baseUrl and the network${idempotent ? '' : '; the service may have acted'})`,
                { cause: error },
              );
        }
      } finally {
        if (timer !== undefined) clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      // No answer, and the call may be retried: back off.
      if (!response) {
        await sleep(clock, backoffDelay(retry, random), signal);
        continue;
      }
      const status = response.status;
      if (status !== 429 && !(idempotent && (status === 408 || status >= 500))) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      if (retryAfter !== undefined && retryAfter > maxRetryAfter) return response;
      const delay = retryAfter === undefined ? backoffDelay(retry, random) : retryAfter * 1000;
      // A 429 holds back every request of the token, from this client and any other.
      const paused = status === 429 && limiter !== undefined;
      if (paused) limiter.pause(clock.now() + delay);
      if (last) return response;
      void response.body?.cancel().catch(() => undefined);
      if (!paused) await sleep(clock, delay, signal);
    }
  };
}

/**
 * Milliseconds to wait before retry number `retry` (0 for the first) when the answer gave no
 * `Retry-After`: `min(0.5 s * 2^retry, 8 s)`, less up to a quarter of jitter so that clients
 * failing together do not retry together.
 */
export function backoffDelay(retry: number, random: () => number): number {
  return Math.min(500 * 2 ** retry, 8000) * (1 - 0.25 * random());
}

/**
 * Resolves after `ms` on `clock`; rejects with `signal.reason` as soon as `signal` aborts. The
 * rate limiter waits with it too.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
