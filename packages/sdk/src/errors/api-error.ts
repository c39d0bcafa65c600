import type { ErrorBody } from '@boundbook/types';
import { BoundBookError } from './bound-book-error';

/**
 * What every {@link ApiError} is built from; {@link createApiError} reads it off a response.
 *
 * @example
 * ```ts
 * const init: ApiErrorInit = { status: 409, headers: new Headers(), body: { message: 'Conflict.' }, message: '409 Conflict.' };
 * throw new ApiError(init);
 * ```
 */
export interface ApiErrorInit {
  status: number;
  headers: Headers;
  /** The parsed error body, or `undefined` when the answer carried none the contract describes. */
  body: ErrorBody | undefined;
  message: string;
}

/**
 * The service answered with a status that is not a success. Subclasses name the common
 * statuses, so `instanceof` narrows `status` and `body`.
 *
 * @example
 * ```ts
 * try {
 *   await bb.receipts.create(body);
 * } catch (error) {
 *   if (error instanceof ApiError) console.error(error.status, error.body?.message, error.headers.get('x-ratelimit-remaining'));
 * }
 * ```
 */
export class ApiError extends BoundBookError {
  override name = 'ApiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's headers (`Retry-After`, `X-RateLimit-Remaining`, ...). */
  readonly headers: Headers;
  /** The error body, `{ message, errors? }`; `undefined` when the answer had no such body. */
  readonly body: ErrorBody | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
  }
}
