import { HEADERS } from '@fflkit/types';

/**
 * What is wrong with a `rateLimit` option, for the caller to prefix with its package and its
 * function; `undefined` when it is not given or is a whole number of requests per minute (0 lifts
 * the limit). The one check of the option, for the core, `startSandbox()` and the MSW mock.
 *
 * @example
 * ```ts
 * import { rateLimitProblem } from '@fflkit/sandbox-core';
 *
 * rateLimitProblem(60); // undefined
 * rateLimitProblem(-1); // 'rateLimit must be a whole number of requests per minute per token, ...; got -1'
 * ```
 */
export function rateLimitProblem(rateLimit: unknown): string | undefined {
  if (rateLimit === undefined || (Number.isSafeInteger(rateLimit) && (rateLimit as number) >= 0)) return undefined;
  return `rateLimit must be a whole number of requests per minute per token, or 0 to lift the limit; got ${String(rateLimit)}`;
}

/** The length of a rate-limit window. */
const WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

/** The outcome of counting one request. */
export interface RateDecision {
  allowed: boolean;
  /** `X-RateLimit-*` headers, plus `Retry-After` on a refusal; none when the limit is lifted. */
  headers: Record<string, string>;
}

/** The decision when the limit is lifted: one frozen object for every request (the reads benchmark). */
const UNLIMITED: RateDecision = Object.freeze({ allowed: true, headers: Object.freeze({}) });

/**
 * The service's rate limit: a fixed 60-second window per token that opens with its first
 * request, on the second of it (as a Laravel service counts whole seconds). A refused request is
 * not counted. Checking and counting happen in one synchronous step, so a window answers exactly
 * `limit` requests whatever the concurrency. Windows are not persisted: a restarted sandbox
 * starts them afresh.
 *
 * The limit counts real time, never an account's clock: advancing the clock must not let a test
 * make more requests than its production code will be allowed. A window ends on a whole second,
 * so a 429's `X-RateLimit-Reset` is that second and its `Retry-After` the seconds from the
 * current one to it: the two always name the same moment.
 */
export class FixedWindowLimiter {
  readonly #limit: number;
  readonly #windows = new Map<number, Window>();
  /** The count of windows past which the ended ones are dropped: tokens come and go for good. */
  #sweepAt = SWEEP_AT_LEAST;

  /** `limit` requests per window; `0` lifts the limit. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts a request of a key (a token id) at a moment of real time, in epoch milliseconds. */
  hit(key: number, nowMs: number): RateDecision {
    if (this.#limit === 0) return UNLIMITED;
    const second = Math.floor(nowMs / 1000) * 1000;
    let window = this.#windows.get(key);
    // A clock set back (by NTP, or a test) opens a new window rather than waiting for the old one.
    if (window === undefined || nowMs >= window.start + WINDOW_MS || second < window.start) {
      if (window === undefined && this.#windows.size >= this.#sweepAt) this.#sweep(nowMs);
      window = { start: second, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= this.#limit) {
      const resetSecond = (window.start + WINDOW_MS) / 1000;
      return {
        allowed: false,
        headers: {
          [HEADERS.rateLimitLimit]: String(this.#limit),
          [HEADERS.rateLimitRemaining]: '0',
          [HEADERS.retryAfter]: String(resetSecond - second / 1000),
          [HEADERS.rateLimitReset]: String(resetSecond),
        },
      };
    }
    window.count += 1;
    return {
      allowed: true,
      headers: {
        [HEADERS.rateLimitLimit]: String(this.#limit),
        [HEADERS.rateLimitRemaining]: String(this.#limit - window.count),
      },
    };
  }

  /** Windows kept now: one per token that made a request within the last minute, or a few more. */
  get size(): number {
    return this.#windows.size;
  }

  /**
   * Drops the windows that ended: a token seen once more starts a new one anyway. Without it, a
   * long-lived sandbox whose tests make accounts and tokens (revoked, deleted) would keep a
   * window for each, for good. Run when the windows double, so it costs a constant per request.
   */
  #sweep(nowMs: number): void {
    for (const [key, window] of this.#windows) {
      if (nowMs >= window.start + WINDOW_MS) this.#windows.delete(key);
    }
    this.#sweepAt = Math.max(SWEEP_AT_LEAST, 2 * this.#windows.size);
  }
}

/** The fewest windows kept before ended ones are dropped. */
const SWEEP_AT_LEAST = 1024;
