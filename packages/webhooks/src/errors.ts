// The package's two kinds of error. A call the caller got wrong (a missing secret, a parsed body,
// an unknown option) throws a `TypeError` whose message starts with the package name; a delivery
// that fails verification rejects with a `WebhookVerificationError` carrying a `reason`. Setup
// mistakes are never answered as a failed signature, and no message ever shows a secret.

/** The package name every error message starts with, so a log line says where it came from. */
export const MESSAGE_PREFIX = '[@fflkit/webhooks]';

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
 * import { constructEvent, WebhookVerificationError } from '@fflkit/webhooks';
 *
 * export async function POST(request: Request): Promise<Response> {
 *   try {
 *     const event = await constructEvent(await request.arrayBuffer(), request.headers, { secret: process.env['WEBHOOK_SECRET']! });
 *     console.log(event.event); // 'receipt.created', ...
 *     return new Response(null, { status: 204 });
 *   } catch (error) {
 *     if (!(error instanceof WebhookVerificationError)) throw error;
 *     // error.reason: 'signature_mismatch', 'invalid_json', ...; error.message says what to do.
 *     if (error.reason === 'unknown_event') return new Response(null, { status: 204 });
 *     const unauthenticated = ['missing_signature', 'malformed_signature', 'signature_mismatch'].includes(error.reason);
 *     return Response.json({ message: error.message }, { status: unauthenticated ? 401 : 400 });
 *   }
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

/**
 * A `TypeError` for a call the caller got wrong, with the package name in front of the message.
 * The message says what to pass instead.
 */
export function misuseError(message: string): TypeError {
  return new TypeError(`${MESSAGE_PREFIX} ${message}`);
}

/**
 * Whether an error is one of this package's misuse errors, whose message is safe to show: it
 * describes the receiver's setup, never a secret.
 */
export function isMisuseError(error: unknown): error is TypeError {
  return error instanceof TypeError && error.message.startsWith(MESSAGE_PREFIX);
}

/**
 * A few words naming what a value is, for misuse messages (`undefined`, `an empty string`,
 * `an object`); never the value itself, which may be a secret.
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (value === '') return 'an empty string';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array that is not all non-empty strings';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
