import type { ValidationErrorBody } from '@boundbook/types';
import { ApiError } from './api-error';

/**
 * 422: the request broke a rule of the contract; `errors` maps each field (dotted for nested
 * fields, `body` for malformed JSON) to its messages.
 *
 * @example
 * ```ts
 * if (error instanceof ValidationError) {
 *   for (const [field, messages] of Object.entries(error.errors)) form.setError(field, messages.join(' '));
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
