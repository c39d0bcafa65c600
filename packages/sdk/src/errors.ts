// Every error the SDK throws: the class hierarchy, the one factory that builds an API error from an
// answer, and the checks that turn a misuse into a RangeError before anything is sent.
import type { ErrorBody, ValidationErrorBody } from '@fflkit/types';

// Each error class's prototype carries its name under this process-wide key, so `instanceof`
// recognises an error thrown by another copy of the SDK in the process (the CommonJS build loaded
// beside the ESM one). The version changes whenever an error class changes shape.
const BRAND = Symbol.for('@fflkit/sdk/error@1');
type Branded = { [BRAND]?: string };

/**
 * Base class of every error the SDK throws on purpose: API answers, connection failures,
 * time-outs and waits past `maxQueueWait`. Misuse (a bad option, `per_page` out of range) throws
 * `TypeError` or `RangeError`. `instanceof` holds across the ESM and CommonJS builds of one version.
 *
 * @example
 * ```ts
 * import { LogbookClient, LogbookError } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * try {
 *   await logbook.receipts.get(42);
 * } catch (error) {
 *   if (error instanceof LogbookError) console.error(error.name, error.message); // 'NotFoundError', '404 Record not found. (check the id; ...)'
 * }
 * ```
 */
export class LogbookError extends Error {
  /** True for an instance of this class, from this copy of the SDK or another (ESM or CommonJS). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = Object.hasOwn(this.prototype, BRAND) && (this.prototype as Branded)[BRAND];
    for (let proto = value; brand && proto != null; proto = Object.getPrototypeOf(proto)) {
      if (Object.hasOwn(proto, BRAND) && (proto as Branded)[BRAND] === brand) return true;
    }
    // A subclass of the integrator's own: the ordinary prototype check.
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
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
 * import { ApiError } from '@fflkit/sdk';
 *
 * const error = new ApiError({ status: 409, headers: new Headers(), body: { message: 'Conflict.' }, message: '409 Conflict.' });
 * console.log(error.status, error.body?.message); // 409 'Conflict.'
 * ```
 */
export class ApiError extends LogbookError {
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
  declare readonly status: 401;
}

/**
 * 403: the token lacks the permission the method needs (read for GET, write for POST and PUT,
 * delete for DELETE; read too for the look-ups of recovery), or the account type may not use the
 * API; the message names which.
 */
export class PermissionDeniedError extends ApiError {
  declare readonly status: 403;
}

/**
 * 404: no such record, or it was deleted (a soft-deleted receipt is 404 for every later call).
 *
 * @example
 * ```ts
 * import { LogbookClient, NotFoundError } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const receipt = await logbook.receipts.get(1043).catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return undefined; // deleted, or never existed
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends ApiError {
  declare readonly status: 404;
}

/**
 * 422: the request broke a rule of the contract; `errors` maps each field (dotted for nested
 * fields, `body` for malformed JSON) to its messages.
 *
 * @example
 * ```ts
 * import { LogbookClient, ValidationError } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * try {
 *   await logbook.receipts.dispose(1042, { disposition_date: '2025-04-02', disposed_to: 'John Q. Example' });
 * } catch (error) {
 *   if (error instanceof ValidationError) console.error(error.errors); // { address: [...], city: [...], state: [...], zip: [...] }
 * }
 * ```
 */
export class ValidationError extends ApiError {
  declare readonly status: 422;
  declare readonly body: ValidationErrorBody | undefined;
  /** Field name to its messages (`body.errors`); empty only when the service sent no details. */
  get errors(): Readonly<Record<string, string[]>> {
    return this.body?.errors ?? {};
  }
}

/**
 * 429: the token's 60 requests per minute are spent. Thrown when the retries ran out, or when
 * `Retry-After` asks for a longer wait than the client's `maxRetryAfter`; the message says which
 * option to raise.
 */
export class RateLimitError extends ApiError {
  declare readonly status: 429;
  /** Seconds to wait before the next request, from `Retry-After`; `undefined` when absent. */
  declare readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit & { retryAfter?: number | undefined }) {
    super(init);
  }
}

/**
 * 5xx: the service failed. Idempotent calls (GET, PUT, DELETE) were already retried; a create or a
 * disposition was looked for and sent again (see the README, "Recovery").
 */
export class InternalServerError extends ApiError {}

/**
 * No answer came: the network failed, the host refused the connection or the name did not
 * resolve. `cause` holds what `fetch` threw; the message names its code (`ECONNREFUSED`, ...).
 */
export class ConnectionError extends LogbookError {}

/** An attempt got no answer within the client's `timeout` (per attempt, 30 s by default). */
export class TimeoutError extends ConnectionError {}

/**
 * The client-side rate limiter would hold a call longer than the client's `maxQueueWait`: the
 * call was not sent. In unit tests against a mock, pass `rateLimit: false`; else raise `maxQueueWait`.
 */
export class QueueTimeoutError extends LogbookError {}

/** The call an {@link OutcomeUnknownError} is about, as it was sent. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  /** The body as sent: JSON text. */
  readonly body: unknown;
}

/**
 * A create, a disposition or an endpoint's creation may have been recorded, and the client could
 * not learn whether: its answer was lost (no answer, a time-out, 408 or 5xx) and the look-up of
 * recovery failed too (`cause`). It is no status of the service and no retry sends it again:
 * sending it as it is may record it twice. Look for the record first (see the README, "Recovery").
 *
 * @example
 * ```ts
 * import { LogbookClient, OutcomeUnknownError, type ReceiptCreate } from '@fflkit/sdk';
 *
 * declare const body: ReceiptCreate;
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * try {
 *   await logbook.receipts.create(body);
 * } catch (error) {
 *   // Not retried: whether it is in the book is checked once the service answers reads again.
 *   if (error instanceof OutcomeUnknownError) console.error(error.request.url, error.lookup, error.cause);
 *   throw error;
 * }
 * ```
 */
export class OutcomeUnknownError extends LogbookError {
  /** The call whose outcome is unknown, as it was sent. */
  declare readonly request: SentRequest;
  /** What recovery looked up to learn the outcome: `GET /receipts?serial_number=EXA0012345&book=Main`. */
  declare readonly lookup: string;

  constructor(message: string, init: { request: SentRequest; lookup: string; cause: unknown }) {
    super(message, { cause: init.cause });
    Object.assign(this, { request: init.request, lookup: init.lookup });
  }
}

// The name of each class, set once on its prototype: `error.name`, and the brand `instanceof` reads.
for (const [Class, name] of [
  [LogbookError, 'LogbookError'],
  [ApiError, 'ApiError'],
  [AuthenticationError, 'AuthenticationError'],
  [PermissionDeniedError, 'PermissionDeniedError'],
  [NotFoundError, 'NotFoundError'],
  [ValidationError, 'ValidationError'],
  [RateLimitError, 'RateLimitError'],
  [InternalServerError, 'InternalServerError'],
  [ConnectionError, 'ConnectionError'],
  [TimeoutError, 'TimeoutError'],
  [QueueTimeoutError, 'QueueTimeoutError'],
  [OutcomeUnknownError, 'OutcomeUnknownError'],
] as const) {
  Object.assign(Class.prototype, { name, [BRAND]: name });
}

// The class of each status that has one, and what to do next: every message ends with it.
const BY_STATUS: Record<number, [new (init: ApiErrorInit & { retryAfter?: number | undefined }) => ApiError, string]> =
  {
    401: [AuthenticationError, 'check the token: it is missing, wrong or revoked'],
    403: [PermissionDeniedError, 'use a key with the permission this method needs'],
    404: [NotFoundError, 'check the id; deleted records are 404'],
    422: [ValidationError, 'fix error.errors'],
    429: [RateLimitError, 'retry after error.retryAfter seconds'],
  };

/**
 * What to do next about an answer, where the transport knows better than its status: why a 429
 * was not waited for, or that a POST may have been recorded. Read by {@link createApiError}.
 */
export const advice = new WeakMap<Response, string>();

/**
 * Builds the {@link ApiError} subclass for a failed answer: 401 {@link AuthenticationError},
 * 403 {@link PermissionDeniedError}, 404 {@link NotFoundError}, 422 {@link ValidationError},
 * 429 {@link RateLimitError}, 5xx {@link InternalServerError}, any other status `ApiError`.
 * `body` is the parsed body (or its text); `now` dates a `Retry-After` given as an HTTP date.
 *
 * @example
 * ```ts
 * import { LogbookClient, createApiError } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const { data, error, response } = await logbook.raw.GET('/receipts/{id}', { params: { path: { id: 42 } } });
 * if (data === undefined) throw createApiError(response, error); // NotFoundError: 404 Record not found. (check the id; ...)
 * ```
 */
export function createApiError(response: Response, body: unknown, now: number = Date.now()): ApiError {
  const { status, headers } = response;
  // The contract's error body is `{ message, errors? }`; a proxy's HTML page or plain text is not.
  const errorBody = typeof (body as ErrorBody | null)?.message === 'string' ? (body as ErrorBody) : undefined;
  const said = errorBody?.message ?? (typeof body === 'string' && body ? body.slice(0, 200) : response.statusText);
  const [Class, fallback] =
    BY_STATUS[status] ??
    (status >= 500 ? [InternalServerError, 'the service failed; retry later'] : [ApiError, 'see error.body']);
  const fields = Object.entries(errorBody?.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  return new Class({
    status,
    headers,
    body: errorBody,
    message: `${status} ${said} (${[advice.get(response) ?? fallback, ...fields].join('; ')})`,
    // Read by RateLimitError only; Object.assign sets it on every class, so only a 429 carries it.
    ...(status === 429 && { retryAfter: parseRetryAfter(headers.get('retry-after'), now) }),
  });
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
    `[@fflkit/sdk] ${name} must be a ${whole ? 'whole ' : ''}number from ${min}${max < Infinity ? ` to ${max}` : ''}, not ${String(value)}`,
  );
}
