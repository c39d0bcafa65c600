/**
 * A few words naming what a value is, for misuse messages; never the value itself, which may
 * be a secret.
 *
 * @example
 * ```ts
 * describeValue(undefined); // 'undefined'
 * describeValue({ event: 'ping' }); // 'an object'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array that is not all non-empty strings';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
