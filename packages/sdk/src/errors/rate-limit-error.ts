import { ApiError, type ApiErrorInit } from './api-error';

/**
 * 429: the token's 60 requests per minute are spent. Thrown when the retries ran out, or when
 * `Retry-After` asks for a longer wait than the client's `maxRetryAfter`.
 *
 * @example
 * ```ts
 * if (error instanceof RateLimitError) setTimeout(retry, (error.retryAfter ?? 60) * 1000);
 * ```
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  declare readonly status: 429;
  /** Seconds to wait before the next request, from `Retry-After`; `undefined` when absent. */
  readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit & { retryAfter: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}
