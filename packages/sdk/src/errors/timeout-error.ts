import { ConnectionError } from './connection-error';

/**
 * An attempt got no answer within the client's `timeout` (per attempt, 30 s by default).
 *
 * @example
 * ```ts
 * const bb = new BoundBook({ timeout: 60_000 }); // when TimeoutError is thrown on slow links
 * ```
 */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}
