import { readClock } from '../options/read-clock';
import { readPositiveNumber } from '../options/read-positive-number';

/** The checks of a delivery beyond its signature, read from the caller's options. */
export interface VerifyOptions {
  /** Largest distance in seconds between the event's timestamp and now; no check when undefined. */
  readonly toleranceSeconds: number | undefined;
  /** The clock, in epoch milliseconds. */
  readonly now: () => number;
}

/**
 * Reads `toleranceSeconds` and `now` from checked options; throws a `TypeError` on a wrong value.
 *
 * @example
 * ```ts
 * readVerifyOptions({ secret, toleranceSeconds: 300 }, 'constructEvent'); // { toleranceSeconds: 300, now: Date.now }
 * ```
 */
export function readVerifyOptions(options: Readonly<Record<string, unknown>>, caller: string): VerifyOptions {
  return {
    toleranceSeconds: readPositiveNumber(options['toleranceSeconds'], 'toleranceSeconds', caller),
    now: readClock(options['now'], caller),
  };
}
