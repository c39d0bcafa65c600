/**
 * The time source of a client: its clock and its timers. Every wait of the SDK (time-outs,
 * backoff, `Retry-After`, the rate limiter) goes through it, so tests drive time by hand.
 *
 * @example
 * ```ts
 * const clock: Clock = {
 *   now: () => Date.now(),
 *   setTimeout: (callback, ms) => setTimeout(callback, ms),
 *   clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
 * };
 * const bb = new BoundBook({ clock });
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

/**
 * The real clock: `Date.now()` and the global timers, looked up when called.
 *
 * @example
 * ```ts
 * systemClock.now(); // 1741964645000
 * ```
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};
