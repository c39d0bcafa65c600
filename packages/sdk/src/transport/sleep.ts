import type { Clock } from './clock';

/**
 * Resolves after `ms` on `clock`; rejects with `signal.reason` as soon as `signal` aborts.
 *
 * @example
 * ```ts
 * await sleep(systemClock, 500, request.signal);
 * ```
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
