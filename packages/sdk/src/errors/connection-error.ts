import { BoundBookError } from './bound-book-error';

/**
 * No answer came: the network failed, the host refused the connection or the name did not
 * resolve. `cause` holds what `fetch` threw.
 *
 * @example
 * ```ts
 * if (error instanceof ConnectionError) console.error('service unreachable', error.cause);
 * ```
 */
export class ConnectionError extends BoundBookError {
  override name = 'ConnectionError';
}
