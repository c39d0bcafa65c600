import { ApiError } from './api-error';

/**
 * The contract's 404 for a record that does not exist, is soft-deleted or belongs to another
 * account.
 *
 * @example
 * ```ts
 * if (receipt === undefined) throw recordNotFound();
 * ```
 */
export function recordNotFound(): ApiError {
  return new ApiError(404, { message: 'Record not found.' });
}

/**
 * The 404 for a method and path that no operation answers; it needs no token.
 *
 * @example
 * ```ts
 * routeNotFound('GET', '/rest/v1/nothing').body.message; // 'The route GET /rest/v1/nothing could not be found.'
 * ```
 */
export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError(404, { message: `The route ${method} ${path} could not be found.` });
}
