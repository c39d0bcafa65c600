import { TimeoutError } from '../errors/timeout-error';
import type { Clock } from './clock';
import type { FetchFunction } from './fetch-function';
import type { PlainRequest } from './plain-request';

/**
 * One attempt of a request: `fetch` with a signal that aborts when the call's signal does or
 * when no answer came within `timeout` milliseconds (then a {@link TimeoutError} is thrown). The
 * timer stops when the headers arrive.
 *
 * @example
 * ```ts
 * const response = await fetchAttempt(fetch, request, 30_000, systemClock);
 * ```
 */
export async function fetchAttempt(
  fetch: FetchFunction,
  request: PlainRequest,
  timeout: number,
  clock: Clock,
): Promise<Response> {
  const signal = request.signal;
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer =
    timeout === Infinity
      ? undefined
      : clock.setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeout);
  try {
    return await fetch(request.url, { ...request, signal: controller.signal } as RequestInit);
  } catch (error) {
    if (!timedOut) throw error;
    throw new TimeoutError(`${request.method} ${request.url}: no answer in ${timeout} ms (raise timeout or check the network)`, { cause: error });
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
