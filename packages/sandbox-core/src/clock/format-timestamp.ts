/**
 * A moment as the API writes timestamps: RFC 3339 in UTC, to the whole second, such as
 * `2025-03-14T15:04:05Z` (the precision of the service's examples).
 *
 * @example
 * ```ts
 * formatTimestamp(Date.UTC(2025, 2, 14, 15, 4, 5, 678)); // '2025-03-14T15:04:05Z'
 * ```
 */
export function formatTimestamp(ms: number): string {
  return formatInstant(Math.floor(ms / 1000) * 1000);
}

/**
 * A moment in RFC 3339 UTC, keeping milliseconds only when there are any; for date-times that
 * a client gives, such as an E4473's `completed_at`.
 *
 * @example
 * ```ts
 * formatInstant(Date.UTC(2025, 3, 2, 16, 10, 0, 500)); // '2025-04-02T16:10:00.500Z'
 * ```
 */
export function formatInstant(ms: number): string {
  const text = new Date(ms).toISOString();
  return text.endsWith('.000Z') ? `${text.slice(0, -5)}Z` : text;
}

/**
 * The UTC calendar date of a moment, `YYYY-MM-DD`: "today" for date validation.
 *
 * @example
 * ```ts
 * utcDate(Date.UTC(2025, 2, 14, 23, 59)); // '2025-03-14'
 * ```
 */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
