/** First backoff delay and its cap, in milliseconds. */
const BASE_MS = 500;
const CAP_MS = 8000;

/**
 * Milliseconds to wait before retry number `retry` (0 for the first) when the answer gave no
 * `Retry-After`: `min(0.5 s * 2^retry, 8 s)`, less up to a quarter of jitter so that clients
 * failing together do not retry together.
 *
 * @example
 * ```ts
 * backoffDelay(0, () => 0); // 500
 * backoffDelay(5, () => 0); // 8000
 * backoffDelay(1, () => 0.5); // 875
 * ```
 */
export function backoffDelay(retry: number, random: () => number): number {
  return Math.min(BASE_MS * 2 ** retry, CAP_MS) * (1 - 0.25 * random());
}
