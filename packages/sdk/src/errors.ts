// Every error the SDK throws: the class hierarchy, the one factory that builds an API error from an
// answer, and the checks that turn a misuse into a RangeError before anything is sent.
import type { ErrorBody, ValidationErrorBody } from '@boundbook/types';

/**
 * Base class of every error the SDK throws on purpose: API answers, connection failures and
 * time-outs. Misuse (a bad option, `per_page` out of range) throws `TypeError` or `RangeError`.
 *
 * @example
 * ```ts
 * import { BoundBook, BoundBookError } from '@boundbook/sdk';
 *
 * const bb = new BoundBook(); // the token and base URL from BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL
 * try {
 *   await bb.receipts.get(42);
 * } catch (error) {
 *   if (error instanceof BoundBookError) console.error(error.name, error.message); // 'NotFoundError', '404 Record not found. (check the id; ...)'
 * }
 * ```
 */
export class BoundBookError extends Error {
  override name = 'BoundBookError';
}

/** What every {@link ApiError} is built from; {@link createApiError} reads it off a response. */
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
 * import { ApiError } from '@boundbook/sdk';
 *
 * const error = new ApiError({ status: 409, headers: new Headers(), body: { message: 'Conflict.' }, message: '409 Conflict.' });
 * console.log(error.status, error.body?.message); // 409 'Conflict.'
 * ```
 */
export class ApiError extends BoundBookError {
  override name = 'ApiError';
  /** The HTTP status of the answer. */
  declare readonly status: number;
  /** The answer's headers (`Retry-After`, `X-RateLimit-Remaining`, ...). */
  declare readonly headers: Headers;
  /** The error body, `{ message, errors? }`; `undefined` when the answer had no such body. */
  declare readonly body: ErrorBody | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    // Sets status, headers and body (and a RateLimitError's retryAfter): the fields are declared,
    // not initialised, so nothing resets them after this constructor.
    Object.assign(this, init);
  }
}

/** 401: the token is missing, wrong or revoked. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  declare readonly status: 401;
}

/**
 * 403: the token lacks the permission the method needs (read for GET, write for POST and PUT,
 * delete for DELETE), or the account type may not use the API; the body's message names which.
 */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
  declare readonly status: 403;
}

/**
 * 404: no such record, or it was deleted (a soft-deleted receipt is 404 for every later call).
 *
 * @example
 * ```ts
 * import { BoundBook, NotFoundError } from '@boundbook/sdk';
 *
 * const bb = new BoundBook(); // the token and base URL from BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL
 * const receipt = await bb.receipts.get(1043).catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return undefined; // deleted, or never existed
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  declare readonly status: 404;
}

/**
 * 422: the request broke a rule of the contract; `errors` maps each field (dotted for nested
 * fields, `body` for malformed JSON) to its messages.
 *
 * @example
 * ```ts
 * import { BoundBook, ValidationError } from '@boundbook/sdk';
 *
 * const bb = new BoundBook(); // the token and base URL from BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL
 * try {
 *   await bb.receipts.dispose(1042, { disposition_date: '2025-04-02', disposed_to: 'John Q. Example' });
 * } catch (error) {
 *   if (error instanceof ValidationError) console.error(error.errors); // { address: [...], form_4473_serial: [...] }
 * }
 * ```
 */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  declare readonly status: 422;
  declare readonly body: ValidationErrorBody | undefined;
  /** Field name to its messages (`body.errors`); empty only when the service sent no details. */
  get errors(): Readonly<Record<string, string[]>> {
    return this.body?.errors ?? {};
  }
}

/**
 * 429: the token's 60 requests per minute are spent. Thrown when the retries ran out, or when
 * `Retry-After` asks for a longer wait than the client's `maxRetryAfter`.
 */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  declare readonly status: 429;
  /** Seconds to wait before the next request, from `Retry-After`; `undefined` when absent. */
  declare readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit & { retryAfter: number | undefined }) {
    super(init);
  }
}

/** 5xx: the service failed. Idempotent calls (GET, PUT, DELETE) were already retried. */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}

/**
 * No answer came: the network failed, the host refused the connection or the name did not
 * resolve. `cause` holds what `fetch` threw.
 */
export class ConnectionError extends BoundBookError {
  override name = 'ConnectionError';
}

/** An attempt got no answer within the client's `timeout` (per attempt, 30 s by default). */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

// The class of each status that has one, and what to do next: every message ends with it.
const BY_STATUS: Record<number, [new (init: ApiErrorInit) => ApiError, string]> = {
  401: [AuthenticationError, 'check the token: it is missing, wrong or revoked'],
  403: [PermissionDeniedError, 'use a key with the permission this method needs'],
  404: [NotFoundError, 'check the id; deleted records are 404'],
  422: [ValidationError, 'fix error.errors'],
};

/**
 * Builds the {@link ApiError} subclass for a failed answer: 401 {@link AuthenticationError},
 * 403 {@link PermissionDeniedError}, 404 {@link NotFoundError}, 422 {@link ValidationError},
 * 429 {@link RateLimitError}, 5xx {@link InternalServerError}, any other status `ApiError`.
 * `body` is the parsed body (or its text); `now` dates a `Retry-After` given as an HTTP date.
 *
 * @example
 * ```ts
 * import { BoundBook, createApiError } from '@boundbook/sdk';
 *
 * const bb = new BoundBook(); // the token and base URL from BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL
 * const { data, error, response } = await bb.raw.GET('/receipts/{id}', { params: { path: { id: 42 } } });
 * if (data === undefined) throw createApiError(response, error); // NotFoundError: 404 Record not found. (check the id; ...)
 * ```
 */
export function createApiError(response: Response, body: unknown, now: number = Date.now()): ApiError {
  const { status, headers } = response;
  // The contract's error body is `{ message, errors? }`; a proxy's HTML page or plain text is not.
  const errorBody = typeof (body as ErrorBody | null)?.message === 'string' ? (body as ErrorBody) : undefined;
  const said = errorBody?.message ?? (typeof body === 'string' && body ? body.slice(0, 200) : response.statusText);
  const [Class, advice] =
    BY_STATUS[status] ??
    (status === 429
      ? [RateLimitError, 'retry after error.retryAfter seconds, or raise maxRetryAfter']
      : status >= 500
        ? [InternalServerError, 'the service failed; retry later']
        : [ApiError, 'see error.body']);
  const fields = Object.entries(errorBody?.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  const init: ApiErrorInit = { status, headers, body: errorBody, message: `${status} ${said} (${[advice, ...fields].join('; ')})` };
  return status === 429 ? new RateLimitError({ ...init, retryAfter: parseRetryAfter(headers.get('retry-after'), now) }) : new Class(init);
}

/**
 * Seconds to wait from a `Retry-After` value: delay-seconds (`"42"`) or an HTTP date
 * (`"Fri, 14 Mar 2025 15:05:00 GMT"`, counted from `now`, never below 0). `undefined` when the
 * header is absent or unreadable. The transport waits by it; {@link RateLimitError} carries it.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * Throws a `RangeError` naming `name` unless `value` is a number from `min` to `max` (a whole
 * one when `whole`): setup mistakes and out-of-range parameters are caught before any request.
 */
export function assertRange(name: string, value: unknown, min: number, max = Infinity, whole = false): void {
  if (typeof value === 'number' && value >= min && value <= max && (!whole || Number.isInteger(value))) return;
  throw new RangeError(
    `[@boundbook/sdk] ${name} must be a ${whole ? 'whole ' : ''}number from ${min}${max < Infinity ? ` to ${max}` : ''}, not ${String(value)}`,
  );
}
