/** What a failed joi rule tells about itself, as far as messages need it. */
export interface RuleFailure {
  /** The joi error type, such as `string.max`, or one of this package's custom types. */
  type: string;
  /** The field's label, such as `serial number`. */
  label: string;
  /** The rule's limit, where it has one. */
  limit?: unknown;
  /** Whether the field is required, which decides the message for an empty string. */
  required: boolean;
}

type MessageFor = (failure: RuleFailure) => string;

const MESSAGES: Readonly<Record<string, MessageFor>> = {
  'any.required': ({ label }) => `The ${label} field is required.`,
  'any.only': ({ label }) => `The selected ${label} is invalid.`,
  'any.invalid': ({ label }) => `The selected ${label} is invalid.`,
  'string.base': ({ label }) => `The ${label} field must be a string.`,
  'string.empty': ({ label, required }) =>
    required ? `The ${label} field is required.` : `The ${label} field must not be empty.`,
  'string.min': ({ label, limit }) => `The ${label} field must be at least ${String(limit)} characters.`,
  'string.max': ({ label, limit }) =>
    `The ${label} field must not be greater than ${String(limit)} characters.`,
  'string.pattern.base': ({ label }) => `The ${label} field format is invalid.`,
  'string.url': ({ label }) => `The ${label} field must be a valid URL.`,
  'number.base': ({ label }) => `The ${label} field must be a number.`,
  'number.integer': ({ label }) => `The ${label} field must be an integer.`,
  'number.min': ({ label, limit }) => `The ${label} field must be at least ${String(limit)}.`,
  'number.max': ({ label, limit }) => `The ${label} field must not be greater than ${String(limit)}.`,
  'number.unsafe': ({ label }) =>
    `The ${label} field must not be greater than ${String(Number.MAX_SAFE_INTEGER)}.`,
  'number.decimals': ({ label }) => `The ${label} field must have at most 2 decimal places.`,
  'date.format': ({ label }) => `The ${label} field must be a valid date in the format YYYY-MM-DD.`,
  'datetime.format': ({ label }) =>
    `The ${label} field must be an RFC 3339 date-time with a UTC offset, such as 2025-03-01T00:00:00Z.`,
  'array.base': ({ label }) => `The ${label} field must be an array.`,
  'array.min': ({ label, limit }) => `The ${label} field must have at least ${String(limit)} items.`,
  'array.max': ({ label, limit }) =>
    `The ${label} field must not have more than ${String(limit)} items.`,
  'array.wildcard': ({ label }) => `The ${label} field must hold * alone or event names only.`,
};

/**
 * The Laravel-style message for a failed rule.
 *
 * @example
 * ```ts
 * laravelMessage({ type: 'any.required', label: 'serial number', required: true });
 * // 'The serial number field is required.'
 * ```
 */
export function laravelMessage(failure: RuleFailure): string {
  const messageFor = MESSAGES[failure.type];
  return messageFor === undefined
    ? `The ${failure.label} field is invalid.`
    : messageFor(failure);
}
