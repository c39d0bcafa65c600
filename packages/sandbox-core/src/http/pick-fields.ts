/**
 * A new plain object with the listed own fields of an untrusted object; everything else (unknown
 * fields, inherited properties, `__proto__`) is left behind.
 *
 * @example
 * ```ts
 * pickFields(JSON.parse('{"model":"X","__proto__":{"a":1}}'), ['model']); // { model: 'X' }
 * ```
 */
export function pickFields(
  source: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(source, field)) picked[field] = source[field];
  }
  return picked;
}
