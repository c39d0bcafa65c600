import { ApiError } from '../errors/api-error';

/**
 * The contract's 429; the rate-limit headers are added where the request was counted.
 *
 * @example
 * ```ts
 * if (!decision.allowed) throw tooManyRequests();
 * ```
 */
export function tooManyRequests(): ApiError {
  return new ApiError(429, { message: 'Too Many Attempts.' });
}
