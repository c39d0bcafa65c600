// The client-side limiter: at most the token's budget of requests start in any minute, and every
// client of the process that holds the token waits in the same queue, whichever build made it.
import { sleep, systemClock, type Clock } from './transport';

/** The service counts requests per minute. */
const WINDOW_MS = 60_000;

/**
 * The limiter of a token, as the transport uses it. Limiters are shared between the ESM and the
 * CommonJS builds of the SDK through a process-wide registry, so this shape changes only with the
 * registry's version (see {@link sharedRateLimiter}).
 */
export interface Limiter {
  /**
   * Reserves the next start for a request: `undefined` when it may start now, else a promise of
   * the moment it may. `hold` hears of each wait before it begins, with its length and whether a
   * 429 causes it; when `hold` throws, nothing is reserved and `acquire` throws that.
   */
  acquire(signal?: AbortSignal, hold?: (ms: number, paused: boolean) => void): Promise<void> | undefined;
  /** Holds back every request of the token until `until` (epoch milliseconds). */
  pause(until: number): void;
}

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
  const acquire: Limiter['acquire'] = (signal, hold) => {
    const now = clock.now();
    const index = oldest;
    const previous = starts[index] as number;
    const start = Math.max(now, pausedUntil, previous + WINDOW_MS);
    if (start > now) hold?.(start - now, start === pausedUntil);
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
        return acquire(signal, hold);
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

// The process-wide registry: for each clock, the limiters by limit and token. It lives on
// `globalThis` under a versioned key, so the ESM and CommonJS builds of the SDK (each with its own
// module state) share one queue per token; a build whose Limiter differs bumps the version and
// keeps a registry of its own. The system clock is keyed by the registry itself, since each build
// has its own `systemClock` object.
const registry: WeakMap<object, Record<string, Limiter>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('@fflkit/sdk/limiters@1')
] ??= new WeakMap()) as WeakMap<object, Record<string, Limiter>>;

/** The process-wide limiter of a token: made on first use, then shared by every client and build. */
export function sharedRateLimiter(token: string, perMinute: number, clock: Clock): Limiter {
  const key = clock === systemClock ? registry : clock;
  let byToken = registry.get(key);
  if (byToken === undefined) registry.set(key, (byToken = {}));
  // The limit leads the key, so no key is ever a name of Object.prototype.
  return (byToken[`${perMinute} ${token}`] ??= createRateLimiter(perMinute, clock));
}
