// The client-side limiter: at most the token's budget of requests start in any minute, and every
// client of the process that holds the token waits in the same queue.
import { sleep, type Clock, type Limiter } from './transport';

/** The service counts requests per minute. */
const WINDOW_MS = 60_000;

/**
 * Lets at most `limit` requests start in any minute (a sliding window, so it stays within the
 * service's fixed window wherever that window starts), in the order they asked, and holds them
 * all back while paused by a 429. Each request reserves its start time when it asks and sleeps
 * until then: one timer per waiting request, none when idle.
 */
export function createRateLimiter(limit: number, clock: Clock): Limiter {
  // Start times of the last `limit` requests, reserved ones included; the oldest at `oldest`.
  const starts = new Array<number>(limit).fill(-Infinity);
  let oldest = 0;
  let pausedUntil = 0;
  const acquire = (signal?: AbortSignal): Promise<void> | undefined => {
    const now = clock.now();
    const index = oldest;
    const previous = starts[index] as number;
    const start = Math.max(now, pausedUntil, previous + WINDOW_MS);
    starts[index] = start;
    oldest = (index + 1) % limit;
    if (start === now) return undefined;
    // A request that will not start at its reserved time gives the reservation back (the ring
    // holds the request it replaced again), unless a later request already reused that place.
    const refund = () => {
      if (starts[index] === start) starts[index] = previous;
    };
    return sleep(clock, start - now, signal).then(
      () => {
        if (pausedUntil <= start) return undefined;
        // A 429 came while it waited: it asks again, behind the pause.
        refund();
        return acquire(signal);
      },
      (reason: unknown) => {
        refund();
        throw reason;
      },
    );
  };
  return {
    acquire,
    pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
    },
  };
}

// One limiter per clock, limit and token: every client of the process that holds the same token
// (on the same clock) waits in the same queue, so together they stay within the token's budget.
const limiters = new WeakMap<Clock, Record<string, Limiter>>();

/** The process-wide limiter of a token: made on first use, then shared. */
export function sharedRateLimiter(token: string, perMinute: number, clock: Clock): Limiter {
  let byToken = limiters.get(clock);
  if (byToken === undefined) limiters.set(clock, (byToken = {}));
  // The limit leads the key, so no key is ever a name of Object.prototype.
  return (byToken[`${perMinute} ${token}`] ??= createRateLimiter(perMinute, clock));
}
