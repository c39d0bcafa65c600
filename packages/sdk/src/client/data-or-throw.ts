import { createApiError } from '../errors/create-api-error';

/**
 * The parsed body of a successful openapi-fetch result (`undefined` for a 204); for any other
 * status, throws the {@link createApiError | ApiError} built from the answer.
 *
 * @example
 * ```ts
 * const { data } = dataOrThrow(await raw.GET('/books'));
 * ```
 */
export function dataOrThrow<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw createApiError(result.response, result.error);
  return result.data as T;
}
