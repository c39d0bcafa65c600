// Moments as the API reads and writes them. Every timestamp the core writes is RFC 3339 in UTC;
// records carry whole seconds (the precision of the service's examples), while due times and
// event timestamps keep milliseconds.

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_SHAPE = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;
// The last instant an RFC 3339 timestamp can name; later ones would format with a six-digit year.
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A moment to the whole second, such as `2025-03-14T15:04:05Z`: the timestamps of records. */
export function formatTimestamp(ms: number): string {
  return formatInstant(Math.floor(ms / 1000) * 1000);
}

/** A moment keeping its milliseconds when it has any, such as `2025-04-02T16:10:00.500Z`. */
export function formatInstant(ms: number): string {
  // One request formats the same moment several times (a record's times, its audit entry, its
  // event), and the next request mostly the same second: the last text is kept.
  if (ms === lastInstant.ms) return lastInstant.text;
  const iso = new Date(ms).toISOString();
  const text = iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
  lastInstant = { ms, text };
  return text;
}

let lastInstant = { ms: Number.NaN, text: '' };

/** The UTC calendar date of a moment, `YYYY-MM-DD`: "today" for date validation. */
export function utcDate(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day === lastDate.day) return lastDate.text;
  const text = new Date(ms).toISOString().slice(0, 10);
  lastDate = { day, text };
  return text;
}

const DAY_MS = 86_400_000;
let lastDate = { day: Number.NaN, text: '' };

/** An account's clock: the wall clock moved by the account's offset. */
export function accountNow(wallMs: number, account: { readonly offset_seconds: number }): number {
  return wallMs + account.offset_seconds * 1000;
}

/** Whether a string is a real `YYYY-MM-DD` date of the Gregorian calendar (`2025-02-29` is not). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_SHAPE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Epoch milliseconds of an RFC 3339 date-time with a UTC offset (`Z` or `±hh:mm`); `undefined`
 * for any other form, including a local time without offset, and for an instant after
 * 9999-12-31T23:59:59Z (such as `9999-12-31T23:59:59-00:01`).
 */
export function parseDateTime(value: string): number | undefined {
  const match = DATE_TIME_SHAPE.exec(value);
  if (match === null) return undefined;
  const [, date = '', hours, minutes, seconds, fraction, zone = 'Z', sign, offsetHours, offsetMinutes] = match;
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
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0 to 99 onto 1900 to 1999.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(h, m, s, millis);
  const instant = utc.getTime() - offset * 60_000;
  return instant > LAST_INSTANT ? undefined : instant;
}
