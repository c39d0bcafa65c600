import type { ErrorBody } from '@boundbook/types';

/**
 * An answer other than success: thrown inside an operation and turned into the response in one
 * place, so every face of the sandbox answers the same status, headers and body.
 *
 * @example
 * ```ts
 * throw new ApiError(404, { message: 'Record not found.' });
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status of the answer, always 4xx. */
  readonly status: number;
  /** The contract's error body: `{ message, errors? }`. */
  readonly body: ErrorBody;
  /** Headers of the answer besides the rate-limit headers, which the router adds. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: ErrorBody, headers: Readonly<Record<string, string>> = {}) {
    super(`[@boundbook/sandbox-core] ${status}: ${body.message}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}
