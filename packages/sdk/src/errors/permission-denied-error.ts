import { ApiError } from './api-error';

/**
 * 403: the token lacks the permission the method needs (read for GET, write for POST and PUT,
 * delete for DELETE), or the account type may not use the API.
 *
 * @example
 * ```ts
 * if (error instanceof PermissionDeniedError) console.error(error.body?.message); // names the missing permission
 * ```
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
  declare readonly status: 403;
}
