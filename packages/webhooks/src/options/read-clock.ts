import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';

/**
 * The `now` option: a function returning epoch milliseconds, `Date.now` when absent; throws a
 * `TypeError` for anything else.
 *
 * @example
 * ```ts
 * const now = readClock(options['now'], 'createWebhookHandler');
 * ```
 */
export function readClock(value: unknown, caller: string): () => number {
  if (value === undefined) return Date.now;
  if (typeof value === 'function') return value as () => number;
  throw misuseError(`${caller}: now must be a function returning epoch milliseconds, like Date.now; got ${describeValue(value)}`);
}
