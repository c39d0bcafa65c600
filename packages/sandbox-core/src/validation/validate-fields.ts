import type { ValidationErrorItem } from 'joi';
import { fieldKey, fieldLabel } from './field-label';
import type { FieldErrors } from './field-errors';
import { laravelMessage } from './laravel-message';
import type { LazySchema } from './lazy-schema';

const OPTIONS = { abortEarly: false, allowUnknown: true, convert: true } as const;

/**
 * Runs a joi schema (built on its first use, see `lazySchema()`) over picked request fields,
 * records the first failure of every field as a Laravel-style message, and returns the value joi
 * made (strings trimmed). Fields that failed are left out of the value, so later rules only see
 * valid data.
 *
 * @example
 * ```ts
 * const value = validateFields(RECEIPT_CREATE_SCHEMA, input, errors, REQUIRED_ON_CREATE);
 * ```
 */
export function validateFields(
  schema: LazySchema,
  input: Record<string, unknown>,
  errors: FieldErrors,
  requiredFields: ReadonlySet<string>,
): Record<string, unknown> {
  const result = schema().validate(input, OPTIONS);
  const value = (result.value ?? {}) as Record<string, unknown>;
  for (const detail of result.error?.details ?? []) {
    const key = fieldKey(detail.path);
    errors.addFirst(key, messageOf(detail, requiredFields));
    const top = detail.path[0];
    if (typeof top === 'string') delete value[top];
  }
  return value;
}

function messageOf(detail: ValidationErrorItem, requiredFields: ReadonlySet<string>): string {
  const key = fieldKey(detail.path);
  return laravelMessage({
    type: detail.type,
    label: fieldLabel(detail.path),
    limit: detail.context?.['limit'],
    required: requiredFields.has(key),
  });
}
