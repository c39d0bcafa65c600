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
 * request. A refused request is not counted. Checking and counting happen in one synchronous
 * step, so a window answers exactly `limit` requests whatever the concurrency. Windows are not
 * persisted: a restarted sandbox starts them afresh.
 */
export class FixedWindowLimiter {
  readonly #limit: number;
  readonly #windows = new Map<number, Window>();

  /** `limit` requests per window; `0` lifts the limit. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Counts a request of a key (a token id) at a moment of its account's clock; frozen answers. */
  hit(key: number, nowMs: number): RateDecision {
    if (this.#limit === 0) return UNLIMITED;
    let window = this.#windows.get(key);
    if (window === undefined || nowMs >= window.start + WINDOW_MS || nowMs < window.start) {
      window = { start: nowMs, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= this.#limit) {
      const end = window.start + WINDOW_MS;
      return {
        allowed: false,
        headers: {
          [HEADERS.rateLimitLimit]: String(this.#limit),
          [HEADERS.rateLimitRemaining]: '0',
          [HEADERS.retryAfter]: String(Math.ceil((end - nowMs) / 1000)),
          [HEADERS.rateLimitReset]: String(Math.ceil(end / 1000)),
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
}
