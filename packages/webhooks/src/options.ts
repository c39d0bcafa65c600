// The readers of options shared by `constructEvent`, `createWebhookHandler` and
// `createMemoryDeliveryStore`. Each checks a value once, at the call or at setup, and throws a
// misuse `TypeError` naming the option and what it takes. An option given as `undefined` reads
// as one not given, so that `{ toleranceSeconds: flags.tolerance }` needs no spread to omit it.
import { describeValue, misuseError } from './errors';

/** The checks of a delivery beyond its signature, read from the caller's options. */
export interface VerifyOptions {
  /** Largest distance in seconds between the event's timestamp and now; no check when undefined. */
  readonly toleranceSeconds: number | undefined;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
}

/**
 * An options argument as a record, after checking that it is an object naming no option outside
 * `allowed`: a misspelt option (`tolerance` for `toleranceSeconds`) must not silently turn a
 * check off.
 */
export function readOptionsObject(
  options: unknown,
  allowed: readonly string[],
  caller: string,
): Readonly<Record<string, unknown>> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw misuseError(
      `${caller}: options must be an object ({ ${allowed.join(', ')} }); got ${describeValue(options)}`,
    );
  }
  const unknown = Object.keys(options).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw misuseError(
      `${caller}: unknown option ${unknown.map((key) => `"${key}"`).join(', ')}; the options are ${allowed.join(', ')}`,
    );
  }
  return options as Readonly<Record<string, unknown>>;
}

/** An optional numeric option: `undefined` when not given, else a finite number above zero (a whole one when `integer`). */
export function readPositiveNumber(value: unknown, name: string, caller: string, integer = false): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value > 0 && Number.isFinite(value) && (!integer || Number.isInteger(value)))
    return value;
  throw misuseError(
    `${caller}: ${name} must be a positive ${integer ? 'whole number' : 'number'}; got ${describeValue(value)}`,
  );
}

/** An optional function option: `undefined` when not given. */
export function readFunction(value: unknown, name: string, caller: string): unknown {
  if (value === undefined || typeof value === 'function') return value;
  throw misuseError(`${caller}: ${name} must be a function; got ${describeValue(value)}`);
}

/** The `now` option: a function returning epoch milliseconds, `Date.now` when not given. */
export function readClock(value: unknown, caller: string): () => number {
  if (value === undefined) return Date.now;
  if (typeof value === 'function') return value as () => number;
  throw misuseError(
    `${caller}: now must be a function returning epoch milliseconds, like Date.now; got ${describeValue(value)}`,
  );
}

/** `toleranceSeconds` and `now` from options already checked by `readOptionsObject`. */
export function readVerifyOptions(options: Readonly<Record<string, unknown>>, caller: string): VerifyOptions {
  return {
    toleranceSeconds: readPositiveNumber(options['toleranceSeconds'], 'toleranceSeconds', caller),
    now: readClock(options['now'], caller),
  };
}
