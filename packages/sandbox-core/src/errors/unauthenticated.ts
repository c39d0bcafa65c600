import { ApiError } from './api-error';

/**
 * The contract's 401 for a missing, unknown or revoked token.
 *
 * @example
 * ```ts
 * unauthenticated().headers['WWW-Authenticate']; // 'Bearer'
 * ```
 */
export function unauthenticated(): ApiError {
  return new ApiError(401, { message: 'Unauthenticated.' }, { 'WWW-Authenticate': 'Bearer' });
}
