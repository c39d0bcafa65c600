import { isCalendarDate } from './calendar-date';

const DATE_TIME_SHAPE =
  /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

// The last instant an RFC 3339 timestamp can name; later ones would format with a six-digit year.
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Parses an RFC 3339 date-time with a UTC offset (`Z` or `±hh:mm`) into epoch milliseconds;
 * `undefined` for any other form, including a local time without offset, and for an instant
 * after 9999-12-31T23:59:59Z (such as `9999-12-31T23:59:59-00:01`).
 *
 * @example
 * ```ts
 * parseDateTime('2025-03-01T00:00:00+01:00'); // 1740783600000
 * parseDateTime('2025-03-01 00:00:00'); // undefined
 * ```
 */
export function parseDateTime(value: string): number | undefined {
  const match = DATE_TIME_SHAPE.exec(value);
  if (match === null) return undefined;
  const [, date = '', hours, minutes, seconds, fraction, zone = 'Z', sign, offsetHours, offsetMinutes] =
    match;
  if (!isCalendarDate(date)) return undefined;
  const h = Number(hours);
  const m = Number(minutes);
  const s = Number(seconds);
  if (h > 23 || m > 59 || s > 59) return undefined;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
    if (oh > 23 || om > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0${fraction}`) * 1000);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(h, m, s, millis);
  const instant = utc.getTime() - offset * 60_000;
  return instant > LAST_INSTANT ? undefined : instant;
}
