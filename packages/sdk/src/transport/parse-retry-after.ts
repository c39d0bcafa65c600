/**
 * Seconds to wait from a `Retry-After` value: delay-seconds (`"42"`) or an HTTP date
 * (`"Fri, 14 Mar 2025 15:05:00 GMT"`, counted from `now`, never below 0). `undefined` when the
 * header is absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter('42', Date.now()); // 42
 * parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now()); // about 5
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
