import { ApiError } from './api-error';

/**
 * 404: no such record, or it was deleted (a soft-deleted receipt is 404 for every later call).
 *
 * @example
 * ```ts
 * const receipt = await bb.receipts.get(id).catch((error) => {
 *   if (error instanceof NotFoundError) return undefined;
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  declare readonly status: 404;
}
