import type { Clock } from '../transport/clock';
import { sleep } from '../transport/sleep';

/** The service counts requests per minute. */
const WINDOW_MS = 60_000;

/**
 * Lets at most `limit` requests start in any minute (a sliding window, so it stays within the
 * service's fixed window wherever that window starts), in the order they asked, and holds them
 * all back while {@link RateLimiter.pause | paused} by a 429. Each request reserves its start
 * time when it asks and sleeps until then: one timer per waiting request, none when idle.
 *
 * @example
 * ```ts
 * const limiter = new RateLimiter(60, systemClock);
 * await limiter.acquire(signal); // undefined at once while the window has room
 * ```
 */
export class RateLimiter {
  readonly #clock: Clock;
  /** Start times of the last `limit` requests, reserved ones included; oldest at `#oldest`. */
  readonly #starts: number[];
  #oldest = 0;
  #pausedUntil = 0;

  constructor(limit: number, clock: Clock) {
    this.#clock = clock;
    this.#starts = new Array<number>(limit).fill(-Infinity);
  }

  /**
   * Takes a slot: `undefined` when the request may start now (the fast path), else a promise
   * that resolves when it may, or rejects with `signal.reason` when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    const now = this.#clock.now();
    const index = this.#oldest;
    const previous = this.#starts[index] ?? -Infinity;
    const start = Math.max(now, this.#pausedUntil, previous + WINDOW_MS);
    this.#starts[index] = start;
    this.#oldest = (index + 1) % this.#starts.length;
    if (start === now) return undefined;
    // A request that will not start at its reserved time gives the reservation back (the ring
    // holds the request it replaced again), unless a later request already reused that place.
    const refund = () => {
      if (this.#starts[index] === start) this.#starts[index] = previous;
    };
    return sleep(this.#clock, start - now, signal).then(
      () => {
        if (this.#pausedUntil <= start) return undefined;
        // A 429 came while it waited: it asks again, behind the pause.
        refund();
        return this.acquire(signal);
      },
      (reason: unknown) => {
        refund();
        throw reason;
      },
    );
  }

  /** Holds every request back until `until` (milliseconds since the epoch): a 429's `Retry-After`. */
  pause(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }
}
