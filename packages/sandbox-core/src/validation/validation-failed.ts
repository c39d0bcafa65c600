import type { ValidationErrorBody } from '@boundbook/types';
import { ApiError } from '../errors/api-error';
import type { FieldErrors } from './field-errors';

/**
 * The contract's 422: `errors` per field, and `message` the first message in Laravel's style,
 * followed by `(and N more errors)` when there are more.
 *
 * @example
 * ```ts
 * if (!errors.isEmpty) throw validationFailed(errors, RECEIPT_FIELDS);
 * ```
 */
export function validationFailed(errors: FieldErrors, order: readonly string[] = []): ApiError {
  const byField = errors.toObject(order);
  const messages = Object.values(byField).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  const message =
    more === 0 ? first : `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
  const body: ValidationErrorBody = { message, errors: byField };
  return new ApiError(422, body);
}

/**
 * A 422 with a single message on a single field.
 *
 * @example
 * ```ts
 * throw fieldInvalid('status', 'The receipt has already been disposed.');
 * ```
 */
export function fieldInvalid(field: string, message: string): ApiError {
  return new ApiError(422, { message, errors: { [field]: [message] } });
}
