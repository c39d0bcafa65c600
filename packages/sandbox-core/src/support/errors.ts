import type { ErrorBody } from '@fflkit/types';

// The core's errors: the one place that words their prefix, the answers an operation throws
// (`ApiError` and its common cases), and the snapshot that cannot be restored.

const PREFIX = '[@fflkit/sandbox-core] ';

/** A message of this package: its name, then what went wrong and what to do next. */
export function packageMessage(message: string): string {
  return `${PREFIX}${message}`;
}

/** A `TypeError` for a call made wrongly, such as a bad option; the message says what to pass. */
export function misuseError(message: string): TypeError {
  return new TypeError(packageMessage(message));
}

/**
 * A snapshot the core cannot restore: damaged (a record missing a field, ids past their
 * sequence), or of a newer format than it reads. `reason` says what is wrong, without the
 * package's name, for a message of whoever stored the snapshot (the sandbox names its data file).
 *
 * @example
 * ```ts
 * import { createSandboxCore, SnapshotError } from '@fflkit/sandbox-core';
 *
 * try {
 *   createSandboxCore({ snapshot: { format: 99 } });
 * } catch (error) {
 *   if (error instanceof SnapshotError) error.reason; // 'it is of format 99, newer than format 2, ...'
 * }
 * ```
 */
export class SnapshotError extends TypeError {
  override readonly name = 'SnapshotError';
  /** What is wrong with the snapshot. */
  readonly reason: string;

  constructor(reason: string) {
    super(packageMessage(`cannot restore the snapshot: ${reason}`));
    this.reason = reason;
  }
}

/**
 * An answer of the contract's error shape, thrown by an operation and turned into the response
 * by the router. A 4xx, or the sandbox's own 503 when it cannot save.
 *
 * @example
 * ```ts
 * import { ApiError } from '@fflkit/sandbox-core';
 *
 * const error = new ApiError(404, { message: 'Record not found.' });
 * error.status; // 404
 * error.body; // { message: 'Record not found.' }
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The contract's error body: `{ message, errors? }`. */
  readonly body: ErrorBody;
  /** Headers of the answer besides the rate-limit headers, which the router adds. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: ErrorBody, headers: Readonly<Record<string, string>> = {}) {
    super(packageMessage(`${status}: ${body.message}`));
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** 401 for a missing, unknown or revoked token. */
export function unauthenticated(): ApiError {
  return new ApiError(401, { message: 'Unauthenticated.' }, { 'WWW-Authenticate': 'Bearer' });
}

/** 403 for a token without the permission its method needs. */
export function missingPermission(permission: string): ApiError {
  return new ApiError(403, { message: `This token lacks the ${permission} permission.` });
}

/** 403 for an account type the API does not serve. */
export function ineligibleAccount(accountType: string): ApiError {
  return new ApiError(403, { message: `Accounts of type ${accountType} cannot use the API.` });
}

/** 404 for a record that does not exist, is soft-deleted or belongs to another account. */
export function recordNotFound(): ApiError {
  return new ApiError(404, { message: 'Record not found.' });
}

/** 404 for a method and path that no route answers. */
export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError(404, { message: `The route ${method} ${path} could not be found.` });
}

/** 429, Laravel's words; the router adds `Retry-After` and the rate-limit headers. */
export function tooManyRequests(): ApiError {
  return new ApiError(429, { message: 'Too Many Attempts.' });
}
