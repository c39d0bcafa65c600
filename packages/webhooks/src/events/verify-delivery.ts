import { HEADERS, SECRET_PREFIX, WEBHOOK_EVENT_NAMES } from '@boundbook/types';
import { WebhookVerificationError } from '../errors/webhook-verification-error';
import type { MatchSecret } from '../signature/match-secret';
import { readSignatureHex } from '../signature/read-signature-hex';
import { checkTolerance } from './check-tolerance';
import { parseEventBody } from './parse-event-body';
import { type WebhookHeaders, readHeader } from './read-header';
import type { VerifyOptions } from './read-verify-options';
import type { UnknownWebhookEvent } from './unknown-webhook-event';

/** A delivery whose signature matched, parsed and checked. */
export interface VerifiedDelivery {
  readonly event: UnknownWebhookEvent;
  /** Whether `event.event` is one of `WEBHOOK_EVENT_NAMES`. */
  readonly known: boolean;
  /** `X-SVC-Delivery`, or `undefined` when absent or empty. */
  readonly deliveryId: string | undefined;
  /** Index of the secret that matched. */
  readonly secretIndex: number;
}

const KNOWN_EVENTS: readonly string[] = WEBHOOK_EVENT_NAMES;

/**
 * Checks a delivery in the order that never parses an unauthenticated body: the signature
 * header's presence and form, the signature, then the JSON, `X-SVC-Event` against the body
 * (when the header is present: it is not signed, the body is) and the timestamp tolerance.
 * Throws a `WebhookVerificationError` at the first failure.
 *
 * @example
 * ```ts
 * const { event, deliveryId } = await verifyDelivery(matchNodeSecret, secrets, body, headers, options);
 * ```
 */
export async function verifyDelivery(
  matchSecret: MatchSecret,
  secrets: readonly string[],
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyOptions,
): Promise<VerifiedDelivery> {
  const signature = readHeader(headers, HEADERS.signature);
  if (signature === undefined) {
    throw new WebhookVerificationError(
      'missing_signature',
      `the request has no ${HEADERS.signature} header: it was not sent by the Logbook Service, or a proxy dropped the header. Pass the request's headers unchanged.`,
    );
  }
  const digestHex = readSignatureHex(signature);
  if (digestHex === undefined) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `the ${HEADERS.signature} header is not "sha256=" followed by 64 lowercase hex digits.`,
    );
  }
  const secretIndex = await matchSecret(secrets, payload, digestHex);
  if (secretIndex < 0) throw mismatch(secrets);

  const event = parseEventBody(payload);
  const eventHeader = readHeader(headers, HEADERS.event);
  if (eventHeader !== undefined && eventHeader !== event.event) {
    throw new WebhookVerificationError(
      'event_mismatch',
      `the ${HEADERS.event} header says "${eventHeader}" but the signed body says "${event.event}": pass the headers of the same request as the body.`,
    );
  }
  if (options.toleranceSeconds !== undefined) checkTolerance(event.timestamp, options.toleranceSeconds, options.now());
  return {
    event,
    known: KNOWN_EVENTS.includes(event.event),
    deliveryId: readHeader(headers, HEADERS.delivery) || undefined,
    secretIndex,
  };
}

function mismatch(secrets: readonly string[]): WebhookVerificationError {
  const hint = secrets.some((secret) => secret.startsWith(SECRET_PREFIX))
    ? ''
    : ` No secret given starts with "${SECRET_PREFIX}": use the secret exactly as shown when the endpoint was created, prefix included.`;
  return new WebhookVerificationError(
    'signature_mismatch',
    `the signature does not match the body: pass the raw request body (the exact bytes received, not a parsed and re-serialised object) and the endpoint's signing secret.${hint}`,
  );
}
