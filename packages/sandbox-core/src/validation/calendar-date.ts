const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether a string is a real `YYYY-MM-DD` date of the Gregorian calendar (so `2025-02-29` is
 * not).
 *
 * @example
 * ```ts
 * isCalendarDate('2024-02-29'); // true
 * isCalendarDate('2025-02-29'); // false
 * ```
 */
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
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
