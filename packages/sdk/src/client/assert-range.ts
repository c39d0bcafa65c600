/**
 * Throws a `RangeError` naming `name` unless `value` is a number from `min` to `max` (a whole
 * one when `whole`): setup mistakes and out-of-range parameters are caught before any request.
 *
 * @example
 * ```ts
 * assertRange('per_page', 500, 1, 200, true); // RangeError: [@boundbook/sdk] per_page must be a whole number from 1 to 200, not 500
 * ```
 */
export function assertRange(name: string, value: unknown, min: number, max = Infinity, whole = false): void {
  if (typeof value === 'number' && value >= min && value <= max && (!whole || Number.isInteger(value))) return;
  throw new RangeError(
    `[@boundbook/sdk] ${name} must be a ${whole ? 'whole ' : ''}number from ${min}${max < Infinity ? ` to ${max}` : ''}, not ${String(value)}`,
  );
}
