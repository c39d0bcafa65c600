import { describeValue } from '../errors/describe-value';
import { misuseError } from '../errors/misuse-error';
import type { WebhookHeaders } from './read-header';

/**
 * The `headers` argument, checked to be a `Headers` object or a record; throws a `TypeError`
 * otherwise (a header value passed in its place, say).
 *
 * @example
 * ```ts
 * readHeadersArgument(request.headers, 'constructEvent');
 * ```
 */
export function readHeadersArgument(headers: unknown, caller: string): WebhookHeaders {
  if (typeof headers === 'object' && headers !== null && !Array.isArray(headers)) return headers as WebhookHeaders;
  throw misuseError(`${caller}: headers must be the request's headers (a Headers object or a record such as req.headers); got ${describeValue(headers)}`);
}
