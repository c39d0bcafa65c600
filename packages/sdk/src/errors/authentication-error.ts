import { ApiError } from './api-error';

/**
 * 401: the token is missing, wrong or revoked.
 *
 * @example
 * ```ts
 * if (error instanceof AuthenticationError) await rotateToken();
 * ```
 */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  declare readonly status: 401;
}
