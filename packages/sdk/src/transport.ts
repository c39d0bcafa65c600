// How a request goes out: the clock every wait goes through, the token's limiter, one attempt with
// its time-out, and the retries with their back-off or `Retry-After`, the recovery of a POST that
// may have been recorded included.
import { RATE_LIMIT_PER_MINUTE } from '@fflkit/types';
import type { LogbookClientOptions } from './client';
import {
  advice,
  assertRange,
  ConnectionError,
  OutcomeUnknownError,
  parseRetryAfter,
  QueueTimeoutError,
  TimeoutError,
} from './errors';
import type { Limiter } from './rate-limiter';
import { readHint } from './recovery';

/**
 * The time source of a client: its clock and its timers. Every wait of the SDK (time-outs,
 * backoff, `Retry-After`, the rate limiter) goes through it, so tests drive time by hand.
 *
 * @example
 * ```ts
 * import { LogbookClient, systemClock, type Clock } from '@fflkit/sdk';
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
 * const logbook = new LogbookClient({ token: 'test', baseUrl: 'https://logbook.test/rest/v1', fetch, clock, random: () => 0, timeout: Infinity, rateLimit: false });
 * await logbook.books.list().catch((error: unknown) => error); // an InternalServerError, after two retries
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
 * instrumentation). It is called as `fetch(url, init)` once per attempt, the init carrying the
 * method, the headers (a `Headers`), the JSON body and the attempt's `signal`.
 *
 * @example
 * ```ts
 * import { LogbookClient, type FetchFunction } from '@fflkit/sdk';
 *
 * const fetch: FetchFunction = async () => Response.json({ data: [] });
 * const logbook = new LogbookClient({ token: 'test', baseUrl: 'https://logbook.test/rest/v1', fetch });
 * console.log(await logbook.books.list()); // []
 * ```
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * A wait of the SDK before an attempt, as the client's `onWait` hears of it. `reason` says why:
 * `'rate-limit'`, the client-side limiter holds the call because the token's requests per minute
 * are spent; `'retry-after'`, the service answered 429 (or 503) with `Retry-After`, and the call (with
 * every call of the token, when the limiter is on) waits that long; `'retry'`, the back-off before
 * retrying a failed attempt.
 *
 * @example
 * ```ts
 * import { LogbookClient, type Wait } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient({ onWait: (wait: Wait) => console.info(`${wait.method} ${wait.url}: ${wait.reason}, ${wait.ms} ms`) });
 * await logbook.books.list(); // 'GET https://logbook.example.com/rest/v1/books: rate-limit, 41250 ms' when the minute's requests are spent
 * ```
 */
export interface Wait {
  readonly reason: 'rate-limit' | 'retry-after' | 'retry';
  /** How long the call waits, in milliseconds. */
  readonly ms: number;
  readonly method: string;
  readonly url: string;
}

/**
 * Looks for what a POST that may have been recorded did: a response to resolve the call with, or
 * `undefined` to send it again; `lookup` says what it reads. Given by the methods that recover
 * (see `recovery.ts`).
 */
export type Recover = (() => Promise<Response | undefined>) & { readonly lookup: string };

/** Sends one call with the client's policy, retries and recovery included, and answers its last response. */
export type Send = (
  url: string,
  init: Omit<RequestInit, 'signal'> & { method: string; signal?: AbortSignal | null | undefined },
  recover?: Recover,
) => Promise<Response>;

// Why the limiter holds a call, for the warning and for QueueTimeoutError.
const HELD = {
  'rate-limit': "the token's requests per minute are spent",
  'retry-after': "a 429 paused the token's calls",
};
// What to do about a wait that a unit test should not make.
const UNIT_TESTS = 'in unit tests against a mock pass rateLimit: false: the mock enforces the limit itself';

/**
 * The sender of a client, with the policy `options` set (defaults and ranges as `LogbookClientOptions`
 * documents them; a value out of range is a RangeError now). Each attempt waits for the token's
 * limiter (`limiterOf` gives it for a budget) and has its own time-out. Connection errors,
 * time-outs, 408, 429 and 5xx are retried for idempotent methods; a POST is retried on 429, the
 * one answer that says the service did not act, and after the other failures only when it has a
 * {@link Recover} that found nothing. Waits follow `Retry-After` (seconds or an HTTP date) or
 * else back off exponentially with jitter. The last answer is returned whatever its status, with
 * its {@link advice}; errors are built from it by the caller.
 */
export function createTransport(options: LogbookClientOptions, limiterOf: (perMinute: number) => Limiter): Send {
  const {
    timeout = 30_000,
    maxRetries = 2,
    maxRetryAfter = 60,
    maxQueueWait = Infinity,
    rateLimit = true,
    recover: recovering = true,
    clock = systemClock,
    random = Math.random,
  } = options;
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const perMinute = typeof rateLimit === 'object' ? rateLimit.perMinute : RATE_LIMIT_PER_MINUTE;
  assertRange('timeout', timeout, 1);
  assertRange('maxRetries', maxRetries, 0, Infinity, true);
  assertRange('maxRetryAfter', maxRetryAfter, 0);
  assertRange('maxQueueWait', maxQueueWait, 0);
  assertRange('rateLimit.perMinute', perMinute, 1, 1e6, true);
  // The token's shared queue; none when rate limiting is off.
  const limiter = rateLimit ? limiterOf(perMinute) : undefined;
  // By default a client says once, on the console, that it holds a call for the limit or a 429.
  let warned = false;
  const onWait =
    options.onWait ??
    (({ reason, ms, method, url }: Wait) => {
      if (reason === 'retry' || warned) return;
      warned = true;
      console.warn(
        `[@fflkit/sdk] ${method} ${url} waits ${ms} ms: ${HELD[reason]} (once per client; ${UNIT_TESTS}; see onWait and maxQueueWait)`,
      );
    });

  return async (url, init, recover) => {
    const { method, signal } = init;
    // GET, PUT and DELETE cannot record anything twice: they are retried after any failure.
    const idempotent = !/^(POST|PATCH)$/.test(method);
    // Whether an attempt may have reached the service without its answer reaching the client.
    let ambiguous = false;
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      const deadline = clock.now() + maxQueueWait;
      const slot = limiter?.acquire(signal ?? undefined, (ms, paused) => {
        const reason = paused ? 'retry-after' : 'rate-limit';
        if (clock.now() + ms > deadline) {
          throw new QueueTimeoutError(
            `${method} ${url}: the limiter would hold it ${ms} ms, past maxQueueWait (${maxQueueWait}): ${HELD[reason]} (${UNIT_TESTS}; else raise maxQueueWait)`,
          );
        }
        onWait({ reason, ms, method, url });
      });
      if (slot) await slot;
      if (signal?.aborted) throw signal.reason;
      // The attempt's own signal aborts with the call's, or when no answer came within the
      // time-out; the timer stops when the headers arrive.
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort);
      const timer = timeout === Infinity ? undefined : clock.setTimeout(() => controller.abort(), timeout);
      let response: Response | undefined;
      let cause: unknown;
      try {
        response = await fetch(url, { ...init, signal: controller.signal });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        cause = error;
      } finally {
        if (timer !== undefined) clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      // The call was not aborted, so an aborted attempt is one that timed out.
      const lost = (note: string) =>
        controller.signal.aborted
          ? new TimeoutError(
              `${method} ${url}: no answer in ${timeout} ms (${note}raise timeout or check the network)`,
              { cause },
            )
          : new ConnectionError(
              `${method} ${url}: ${describe(cause)} on attempt ${retry + 1} (${note}is the sandbox running? check baseUrl and the network)`,
              { cause },
            );
      const status = response?.status ?? 0;
      const failed = !response || status === 408 || status >= 500;
      // A DELETE sent again after an attempt that may have acted: 404 is what that attempt did.
      if (status === 404 && ambiguous && recovering && method === 'DELETE') return new Response(null, { status: 204 });
      const recovers = failed && recover !== undefined;
      if (status !== 429 && !(failed && (idempotent || recovers))) {
        // A success, an answer that retrying cannot change, or a POST that may have been recorded.
        const note = failed ? 'the service may have acted: look before sending it again; ' : '';
        if (!response) throw lost(note);
        if (note) advice.set(response, note.slice(0, -2));
        return response;
      }
      const retryAfter = response && parseRetryAfter(response.headers.get('retry-after'), clock.now());
      const tooLong = (retryAfter ?? 0) > maxRetryAfter;
      const delay = retryAfter === undefined ? backoffDelay(retry, random) : retryAfter * 1000;
      if (!tooLong) {
        // A 429 holds back every request of the token, from this client and any other.
        if (status === 429 && limiter) limiter.pause(clock.now() + delay);
        // Before a look-up too: a service may take a moment to show what it recorded.
        else if (!last || recovers) {
          onWait({ reason: retryAfter === undefined ? 'retry' : 'retry-after', ms: delay, method, url });
          await sleep(clock, delay, signal ?? undefined);
        }
      }
      // A look-up that fails leaves the outcome unknown: said so, never as a status to retry on.
      const found = recovers
        ? await recover().catch((error: unknown) => {
            void response?.body?.cancel().catch(() => undefined);
            const lostBy = response ? `${status}` : controller.signal.aborted ? 'time-out' : 'no answer';
            throw new OutcomeUnknownError(
              `${method} ${url}: outcome unknown: its answer was lost (${lostBy}) and the look-up that tells whether it was recorded (${recover.lookup}) failed: ${(error as Error).message}. Look for it before sending it again; never send it again as it is${readHint(error)}`,
              { request: { method, url, body: init.body }, lookup: recover.lookup, cause: error },
            );
          })
        : undefined;
      if (found || !(last || tooLong)) {
        // An answer not returned: its body is let go, so that its connection is freed.
        void response?.body?.cancel().catch(() => undefined);
        if (found) return found;
        ambiguous ||= failed;
        continue;
      }
      const note = recovers
        ? 'a look-up found nothing it recorded, but a real service may show it late: look before sending it again'
        : tooLong
          ? `Retry-After is ${retryAfter} s, past maxRetryAfter (${maxRetryAfter}): retry later or raise maxRetryAfter`
          : status === 429
            ? `retry after error.retryAfter seconds, or raise maxRetries (${maxRetries})`
            : '';
      if (!response) throw lost(note && `${note}; `);
      if (note) advice.set(response, note);
      return response;
    }
  };
}

// What `fetch` threw, with the code behind it where the runtime gives one: Node's undici throws
// "fetch failed" with the system error (`connect ECONNREFUSED 127.0.0.1:4010`) as its cause, an
// AggregateError of them when the host has several addresses.
function describe(error: unknown): string {
  const cause = (error as { cause?: { errors?: unknown[]; code?: string; message?: string } } | undefined)?.cause;
  const detail = (cause?.errors?.[0] ?? cause) as { code?: string; message?: string } | undefined;
  return `${String(error)}${detail?.code ? ` (${detail.message || detail.code})` : ''}`;
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
