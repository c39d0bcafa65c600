/**
 * The human name of a request field in messages, as Laravel writes it: underscores become
 * spaces, nested parts are joined with dots.
 *
 * @example
 * ```ts
 * fieldLabel(['serial_number']); // 'serial number'
 * fieldLabel(['events', 0]); // 'events.0'
 * ```
 */
export function fieldLabel(path: readonly (string | number)[]): string {
  return path.join('.').replaceAll('_', ' ');
}

/**
 * The key of a request field in the `errors` object: nested parts joined with dots.
 *
 * @example
 * ```ts
 * fieldKey(['events', 1]); // 'events.1'
 * ```
 */
export function fieldKey(path: readonly (string | number)[]): string {
  return path.join('.');
}
