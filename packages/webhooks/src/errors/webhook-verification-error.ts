import { MESSAGE_PREFIX } from './misuse-error';

/**
 * Why a delivery was refused:
 *
 * - `missing_signature`, `malformed_signature`, `signature_mismatch`: the request is not
 *   authenticated (a receiver answers 401);
 * - `invalid_json`: the signed body is not JSON, or not a `{ event, timestamp, data }` object;
 * - `event_mismatch`: `X-SVC-Event` disagrees with the body's `event`;
 * - `unknown_event`: the event name is not one this version knows (acknowledge it with a 2xx);
 * - `timestamp_out_of_tolerance`: the body's `timestamp` is further from now than the
 *   `toleranceSeconds` given.
 */
export type WebhookVerificationReason =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'event_mismatch'
  | 'unknown_event'
  | 'timestamp_out_of_tolerance';

/**
 * A delivery that `constructEvent` refused, with a machine-readable `reason` and a message that
 * says what to do. A receiver answers 401 for the three signature reasons, 2xx for
 * `unknown_event` (so that the service does not retry it) and 400 for the others.
 *
 * @example
 * ```ts
 * try {
 *   event = await constructEvent(body, request.headers, { secret });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError && error.reason === 'signature_mismatch') {
 *     return new Response(null, { status: 401 });
 *   }
 *   throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  /** Why the delivery was refused. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(`${MESSAGE_PREFIX} ${message}`);
    this.reason = reason;
  }
}
