import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';

/**
 * An optional numeric option: `undefined` when absent, else a finite number above zero (and a
 * whole number when `integer`); throws a `TypeError` otherwise.
 *
 * @example
 * ```ts
 * readPositiveNumber(options['toleranceSeconds'], 'toleranceSeconds', 'constructEvent'); // 300 or undefined
 * ```
 */
export function readPositiveNumber(value: unknown, name: string, caller: string, integer = false): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value > 0 && Number.isFinite(value) && (!integer || Number.isInteger(value))) return value;
  throw misuseError(`${caller}: ${name} must be a positive ${integer ? 'whole number' : 'number'}; got ${describeValue(value)}`);
}
