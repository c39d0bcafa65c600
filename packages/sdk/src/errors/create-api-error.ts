import type { ErrorBody } from '@boundbook/types';
import { parseRetryAfter } from '../transport/parse-retry-after';
import { ApiError, type ApiErrorInit } from './api-error';
import { AuthenticationError } from './authentication-error';
import { InternalServerError } from './internal-server-error';
import { NotFoundError } from './not-found-error';
import { PermissionDeniedError } from './permission-denied-error';
import { RateLimitError } from './rate-limit-error';
import { ValidationError } from './validation-error';

// What to do next, by status: every message ends with it.
const ADVICE: Record<number, string> = {
  401: 'check the token: it is missing, wrong or revoked',
  403: 'use a key with the permission this method needs',
  404: 'check the id; deleted records are 404',
  422: 'fix error.errors',
  429: 'retry after error.retryAfter seconds, or raise maxRetryAfter',
};

/**
 * Builds the {@link ApiError} subclass for a failed answer: 401 {@link AuthenticationError},
 * 403 {@link PermissionDeniedError}, 404 {@link NotFoundError}, 422 {@link ValidationError},
 * 429 {@link RateLimitError}, 5xx {@link InternalServerError}, any other status `ApiError`.
 * `body` is the parsed body (or its text); `now` dates a `Retry-After` given as an HTTP date.
 *
 * @example
 * ```ts
 * const { data, error, response } = await bb.raw.GET('/books');
 * if (!response.ok) throw createApiError(response, error);
 * ```
 */
export function createApiError(response: Response, body: unknown, now: number = Date.now()): ApiError {
  const { status, headers } = response;
  // The contract's error body is `{ message, errors? }`; a proxy's HTML page or plain text is not.
  const errorBody = typeof (body as ErrorBody | null)?.message === 'string' ? (body as ErrorBody) : undefined;
  const said = errorBody?.message ?? (typeof body === 'string' && body ? body.slice(0, 200) : response.statusText);
  const init: ApiErrorInit = { status, headers, body: errorBody, message: `${status} ${said}` };
  const fields = Object.entries(errorBody?.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  const advice = ADVICE[status] ?? (status >= 500 ? 'the service failed; retry later' : 'see error.body');
  init.message += ` (${[advice, ...fields].join('; ')})`;
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 422) return new ValidationError(init);
  if (status === 429) return new RateLimitError({ ...init, retryAfter: parseRetryAfter(headers.get('retry-after'), now) });
  return status >= 500 ? new InternalServerError(init) : new ApiError(init);
}
