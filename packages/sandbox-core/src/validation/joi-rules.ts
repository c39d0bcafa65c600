import Joi from 'joi';
import { isCalendarDate } from './calendar-date';
import { parseDateTime } from './parse-date-time';

/**
 * A string, trimmed before the other rules, of at most `max` characters. Characters are Unicode
 * code points, as JSON Schema's `maxLength` counts them (joi's own `max` counts UTF-16 units, so
 * an emoji would count twice). Numbers and other types are refused, never coerced.
 *
 * @example
 * ```ts
 * Joi.object({ model: trimmedString(255).required() });
 * ```
 */
export function trimmedString(max: number): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) =>
      characterCount(value) <= max ? value : helpers.error('string.max', { limit: max }),
    );
}

/**
 * The number of Unicode code points of a string.
 *
 * @example
 * ```ts
 * characterCount('🔫'); // 1, where '🔫'.length is 2
 * ```
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * A money amount: a number (not a numeric string), at least 0, with at most 2 decimal places.
 * The places are read from the number's shortest string form, so `0.1 + 0.2` is refused and
 * `389.5` is accepted, which a float `multipleOf(0.01)` cannot tell apart reliably.
 *
 * @example
 * ```ts
 * Joi.object({ purchase_amount: amount() });
 * ```
 */
export function amount(): Joi.NumberSchema {
  return Joi.number()
    .strict()
    .min(0)
    .custom((value: number, helpers) =>
      hasAtMostTwoDecimals(value) ? value : helpers.error('number.decimals'),
    );
}

function hasAtMostTwoDecimals(value: number): boolean {
  if (Number.isInteger(value)) return true;
  const text = String(value);
  if (text.includes('e')) return false;
  const point = text.indexOf('.');
  return point !== -1 && text.length - point - 1 <= 2;
}

/**
 * A real `YYYY-MM-DD` date, trimmed first.
 *
 * @example
 * ```ts
 * Joi.object({ receipt_date: calendarDate().required() });
 * ```
 */
export function calendarDate(): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) =>
      isCalendarDate(value) ? value : helpers.error('date.format'),
    );
}

/**
 * An RFC 3339 date-time with a UTC offset, trimmed first.
 *
 * @example
 * ```ts
 * Joi.object({ completed_at: dateTime().required() });
 * ```
 */
export function dateTime(): Joi.StringSchema {
  return Joi.string()
    .trim()
    .custom((value: string, helpers) =>
      parseDateTime(value) === undefined ? helpers.error('datetime.format') : value,
    );
}

/**
 * An absolute URL of one of the given schemes, at most `max` characters, trimmed first.
 *
 * @example
 * ```ts
 * Joi.object({ url: absoluteUrl(255, ['http:', 'https:']).required() });
 * ```
 */
export function absoluteUrl(max: number, schemes?: readonly string[]): Joi.StringSchema {
  return Joi.string()
    .trim()
    .max(max)
    .custom((value: string, helpers) =>
      isAbsoluteUrl(value, schemes) ? value : helpers.error('string.url'),
    );
}

// The contract's pattern for http(s) URLs: the scheme and both slashes as written, which
// `new URL()` would otherwise repair (`http:/example.com` parses as `http://example.com/`).
const HTTP_URL_PREFIX = /^https?:\/\//i;

function isAbsoluteUrl(value: string, schemes: readonly string[] | undefined): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (schemes !== undefined && !schemes.includes(url.protocol)) return false;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
  // Credentials in a URL would be stored and shown back by every list of endpoints.
  return HTTP_URL_PREFIX.test(value) && url.hostname !== '' && url.username === '' && url.password === '';
}
