import type { Clock } from '../transport/clock';
import { RateLimiter } from './rate-limiter';

// One limiter per clock, limit and token: every client of the process that holds the same token
// (on the same clock) waits in the same queue, so together they stay within the token's budget.
const limiters = new WeakMap<Clock, Map<string, RateLimiter>>();

/**
 * The process-wide {@link RateLimiter} of a token: made on first use, then shared.
 *
 * @example
 * ```ts
 * sharedRateLimiter(token, 60, systemClock) === sharedRateLimiter(token, 60, systemClock); // true
 * ```
 */
export function sharedRateLimiter(token: string, perMinute: number, clock: Clock): RateLimiter {
  let byToken = limiters.get(clock);
  if (byToken === undefined) limiters.set(clock, (byToken = new Map()));
  const key = `${perMinute} ${token}`;
  let limiter = byToken.get(key);
  if (limiter === undefined) byToken.set(key, (limiter = new RateLimiter(perMinute, clock)));
  return limiter;
}
