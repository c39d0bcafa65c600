import { ApiError } from './api-error';

/**
 * 5xx: the service failed. Idempotent calls (GET, PUT, DELETE) were already retried.
 *
 * @example
 * ```ts
 * if (error instanceof InternalServerError) queue.retryLater(job);
 * ```
 */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}
