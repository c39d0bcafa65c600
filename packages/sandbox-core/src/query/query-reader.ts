import { parseQuery } from '../http/parse-query';
import { fieldLabel } from '../validation/field-label';
import { parseDateTime } from '../validation/parse-date-time';
import type { FieldErrors } from '../validation/field-errors';
import { laravelMessage } from '../validation/laravel-message';

/**
 * Reads the query parameters an operation knows, each trimmed, and records a 422 message keyed
 * by the parameter's name for every malformed, repeated or invalid one. Unknown parameters are
 * ignored.
 *
 * @example
 * ```ts
 * const reader = new QueryReader(request.query, errors);
 * const status = reader.oneOf('status', RECEIPT_STATUSES);
 * ```
 */
export class QueryReader {
  readonly #values: Map<string, string[]>;
  readonly #malformed: ReadonlySet<string>;
  readonly #errors: FieldErrors;

  constructor(query: string, errors: FieldErrors) {
    const parsed = parseQuery(query);
    this.#values = parsed.values;
    this.#malformed = new Set(parsed.malformed);
    this.#errors = errors;
  }

  /** The trimmed value of a parameter given once; `undefined` when absent or refused. */
  string(name: string): string | undefined {
    if (this.#malformed.has(name)) {
      this.#fail(name, `The ${fieldLabel([name])} field is not correctly percent-encoded.`);
      return undefined;
    }
    const list = this.#values.get(name);
    if (list === undefined) return undefined;
    if (list.length > 1) {
      this.#fail(name, `The ${fieldLabel([name])} field must be given only once.`);
      return undefined;
    }
    return (list[0] ?? '').trim();
  }

  /** A string of 1 to `max` characters; `required` reports its absence. */
  text(name: string, max: number, required = false): string | undefined {
    const value = this.string(name);
    if (value === undefined) {
      if (required && !this.#errors.has(name)) this.#failRule(name, 'any.required');
      return undefined;
    }
    if (value === '') return this.#failRule(name, required ? 'any.required' : 'string.empty');
    if (value.length > max) return this.#failRule(name, 'string.max', max);
    return value;
  }

  /** One of the given values. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) return this.#failRule(name, 'any.only');
    return value as T;
  }

  /** A whole number from `min` to `max`, written in decimal digits. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const number = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number)) return this.#failRule(name, 'number.integer');
    if (number < min || number > max) {
      const label = fieldLabel([name]);
      this.#fail(
        name,
        max === Number.MAX_SAFE_INTEGER
          ? `The ${label} field must be at least ${min}.`
          : `The ${label} field must be between ${min} and ${max}.`,
      );
      return undefined;
    }
    return number;
  }

  /** An RFC 3339 date-time with a UTC offset, as epoch milliseconds. */
  dateTime(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const ms = parseDateTime(value);
    return ms === undefined ? this.#failRule(name, 'datetime.format') : ms;
  }

  #failRule(name: string, type: string, limit?: number): undefined {
    const label = fieldLabel([name]);
    this.#fail(name, laravelMessage({ type, label, limit, required: false }));
    return undefined;
  }

  #fail(name: string, message: string): void {
    this.#errors.addFirst(name, message);
  }
}
