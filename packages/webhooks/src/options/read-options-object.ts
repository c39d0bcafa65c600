import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';

/**
 * An options argument as a record, after checking that it is an object naming no option outside
 * `allowed`: a misspelt option (`tolerance` for `toleranceSeconds`) must not silently turn a
 * check off. Throws a `TypeError` otherwise.
 *
 * @example
 * ```ts
 * readOptionsObject({ ttlSeconds: 60 }, ['ttlSeconds', 'maxEntries', 'now'], 'createMemoryDeliveryStore');
 * ```
 */
export function readOptionsObject(options: unknown, allowed: readonly string[], caller: string): Readonly<Record<string, unknown>> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw misuseError(`${caller}: options must be an object ({ ${allowed.join(', ')} }); got ${describeValue(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw misuseError(`${caller}: unknown option ${unknown.map((key) => `"${key}"`).join(', ')}; the options are ${allowed.join(', ')}`);
  }
  return options as Readonly<Record<string, unknown>>;
}
