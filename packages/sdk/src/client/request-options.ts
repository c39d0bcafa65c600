/**
 * Options of one call, the last argument of every method.
 *
 * @example
 * ```ts
 * const receipt = await bb.receipts.get(42, { signal: AbortSignal.timeout(5000) });
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, including its waits for retries and for the rate limiter. */
  signal?: AbortSignal;
}

/**
 * The part of openapi-fetch's options that carries {@link RequestOptions}.
 *
 * @example
 * ```ts
 * await raw.GET('/books', requestInit(options));
 * ```
 */
export function requestInit(options: RequestOptions | undefined): { signal: AbortSignal | null } {
  return { signal: options?.signal ?? null };
}
