// The core answers with its records themselves, deeply frozen and replaced (never mutated) on
// change, and answers a list again with the very same frozen body while the state stands (its
// answer cache). A transport may then keep what it made of such a value by identity: it can never
// go stale. The one rule of when it may, for both faces.

/**
 * Wraps `serialize` (a value to its JSON text, or to that text's bytes) so that what it makes of
 * a value whose JSON can never change is kept by the value's identity and made once: a primitive,
 * or a frozen plain object or array of data properties holding only such values. Anything else
 * is serialised afresh each time, so the result is always `serialize(value)`'s.
 *
 * @example
 * ```ts
 * import { keptByIdentity } from '@fflkit/sandbox-core';
 *
 * const jsonText = keptByIdentity((value) => JSON.stringify(value));
 * const page = Object.freeze({ data: Object.freeze([Object.freeze({ id: 1 })]) });
 * jsonText(page) === jsonText(page); // true, and serialised once
 * ```
 */
export function keptByIdentity<T>(serialize: (value: unknown) => T): (value: unknown) => T {
  // What was made of each frozen value, or null for one found to hold something that is not.
  const kept = new WeakMap<object, { made: T } | null>();
  return (value) => {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return serialize(value);
    const known = kept.get(value);
    if (known) return known.made;
    const made = serialize(value);
    if (known === undefined) kept.set(value, isImmutableData(value) ? { made } : null);
    return made;
  };
}

/** A plain object whose JSON form is its own enumerable members (no `toJSON`). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in value);
}

/**
 * Whether the JSON form of a value can never change: a primitive, or a frozen plain object or
 * array of data properties (no getters, no functions) holding only such values.
 */
function isImmutableData(value: unknown): boolean {
  if (typeof value === 'function') return false;
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value) || !(Array.isArray(value) || isPlainObject(value))) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor) || !isImmutableData(descriptor.value)) return false;
  }
  return true;
}
