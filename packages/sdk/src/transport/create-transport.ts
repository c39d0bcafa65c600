import { ConnectionError } from '../errors/connection-error';
import { TimeoutError } from '../errors/timeout-error';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import { backoffDelay } from './backoff-delay';
import type { Clock } from './clock';
import { fetchAttempt } from './fetch-attempt';
import type { FetchFunction } from './fetch-function';
import { parseRetryAfter } from './parse-retry-after';
import type { PlainRequest } from './plain-request';
import { sleep } from './sleep';

/** The policy a transport applies to every request; see `BoundBookOptions` for each field. */
export interface TransportPolicy {
  fetch: FetchFunction;
  clock: Clock;
  random: () => number;
  /** Milliseconds per attempt. */
  timeout: number;
  maxRetries: number;
  /** Seconds: a longer `Retry-After` is not waited for. */
  maxRetryAfter: number;
  /** The token's shared queue; `undefined` when rate limiting is off. */
  limiter: RateLimiter | undefined;
}

/**
 * The `fetch` that openapi-fetch calls: waits for the token's rate limiter, sends with a time-out
 * per attempt, and retries connection errors, time-outs, 408, 429 and 5xx for idempotent methods;
 * a POST is retried on 429 only, the one answer that says the service did not act. Waits follow
 * `Retry-After` (seconds or an HTTP date) or else back off exponentially with jitter. The last
 * answer is returned whatever its status; errors are built from it by the caller.
 *
 * @example
 * ```ts
 * const raw = createClient<paths>({ baseUrl, Request: PlainRequest, fetch: createTransport(policy) });
 * ```
 */
export function createTransport(policy: TransportPolicy): (request: PlainRequest) => Promise<Response> {
  const { clock, limiter, maxRetries } = policy;
  return async (request) => {
    const signal = request.signal ?? undefined;
    // GET, PUT and DELETE cannot record anything twice: they are retried after any failure.
    const idempotent = !/^(POST|PATCH)$/.test(request.method);
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      const slot = limiter?.acquire(signal);
      if (slot !== undefined) await slot;
      let response: Response;
      try {
        response = await fetchAttempt(policy.fetch, request, policy.timeout, clock);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (last || !idempotent) throw connectionFailure(request, error, retry + 1, idempotent);
        await sleep(clock, backoffDelay(retry, policy.random), signal);
        continue;
      }
      const status = response.status;
      if (status !== 429 && !(idempotent && (status === 408 || status >= 500))) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfter) return response;
      const delay = retryAfter === undefined ? backoffDelay(retry, policy.random) : retryAfter * 1000;
      // A 429 holds back every request of the token, from this client and any other.
      const paused = status === 429 && limiter !== undefined;
      if (paused) limiter.pause(clock.now() + delay);
      if (last) return response;
      void response.body?.cancel().catch(() => undefined);
      if (!paused) await sleep(clock, delay, signal);
    }
  };
}

function connectionFailure(request: PlainRequest, error: unknown, attempts: number, idempotent: boolean): ConnectionError {
  if (error instanceof TimeoutError) return error;
  return new ConnectionError(
    `${request.method} ${request.url}: ${String(error)} on attempt ${attempts} (check baseUrl and the network${idempotent ? '' : '; the service may have acted'})`,
    { cause: error },
  );
}
