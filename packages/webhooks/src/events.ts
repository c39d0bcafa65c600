// A delivery verified and parsed into an event: the checks run in the order that never parses an
// unauthenticated body (the signature header's presence and form, the signature, then the JSON,
// `X-SVC-Event` and the timestamp). `constructEvent` and the handler's `receive` both go through
// `verifyDelivery`; they differ only in what they do with an event this version does not know.
import { HEADERS, WEBHOOK_EVENT_NAMES, WEBHOOK_RETRY_DELAYS_SECONDS, type WebhookEvent } from '@fflkit/types';
import { WebhookVerificationError, describeValue, misuseError } from './errors';
import { type VerifyOptions, readOptionsObject, readVerifyOptions } from './options';
import { type MatchSecret, type WebhookSecret, readEndpointSecrets, readPayload, readSignatureHex } from './signature';

/**
 * Request headers as a Fetch `Headers` object or a plain record such as Node's
 * `IncomingHttpHeaders`. Names are matched case-insensitively either way.
 */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A verified delivery body whose `event` this version of the package does not know: a newer
 * event of the service. Handled by `onUnknownEvent`.
 */
export interface UnknownWebhookEvent {
  readonly event: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Options of `constructEvent`. An option given as `undefined` is an option not given. */
export interface ConstructEventOptions {
  /** The endpoint's signing secret, or several while rotating; one without its `whsec_` prefix is refused with a `TypeError`. */
  readonly secret: WebhookSecret;
  /**
   * Refuse an event whose `timestamp` is further than this many seconds from now. Off by
   * default: every retry keeps the first attempt's timestamp, so a tolerance shorter than the
   * retry schedule (about 28 hours) refuses genuine retries.
   */
  readonly toleranceSeconds?: number | undefined;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
}

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

const CONSTRUCT_EVENT_OPTIONS = ['secret', 'toleranceSeconds', 'now'] as const;
const KNOWN_EVENTS: readonly string[] = WEBHOOK_EVENT_NAMES;
const RETRY_SCHEDULE_SECONDS = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
const decoder = new TextDecoder('utf-8', { fatal: true });

/** `constructEvent` over a build's `matchSecret`: an event this version does not know is refused (`unknown_event`). */
export async function constructEventWith(
  matchSecret: MatchSecret,
  payload: unknown,
  headers: unknown,
  options: unknown,
): Promise<WebhookEvent> {
  const record = readOptionsObject(options, CONSTRUCT_EVENT_OPTIONS, 'constructEvent');
  const secrets = readEndpointSecrets(record['secret'], 'constructEvent');
  const verifyOptions = readVerifyOptions(record, 'constructEvent');
  const bytes = readPayload(payload, 'constructEvent');
  const delivery = await verifyDelivery(
    matchSecret,
    secrets,
    bytes,
    readHeadersArgument(headers, 'constructEvent'),
    verifyOptions,
  );
  if (!delivery.known) {
    throw new WebhookVerificationError(
      'unknown_event',
      `the event "${delivery.event.event}" is not one this version of @fflkit/webhooks knows (${WEBHOOK_EVENT_NAMES.join(', ')}). Acknowledge it with a 2xx so that the service does not retry it, and upgrade @fflkit/webhooks to handle it.`,
    );
  }
  return delivery.event as WebhookEvent;
}

/**
 * Checks a delivery in the order that never parses an unauthenticated body: the signature
 * header's presence and form, the signature, then the JSON, `X-SVC-Event` against the body (when
 * the header is present: it is not signed, the body is) and the timestamp tolerance. Throws a
 * `WebhookVerificationError` at the first failure.
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
  if (secretIndex < 0) throw mismatch();

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

/** The `headers` argument, checked to be a `Headers` object or a record (not a header value passed in its place, say). */
export function readHeadersArgument(headers: unknown, caller: string): WebhookHeaders {
  if (typeof headers === 'object' && headers !== null && !Array.isArray(headers)) return headers as WebhookHeaders;
  throw misuseError(
    `${caller}: headers must be the request's headers (a Headers object or a record such as req.headers); got ${describeValue(headers)}`,
  );
}

/**
 * The value of one header, or `undefined` when it is absent. Repeated values are joined with
 * `", "` as Fetch does, so a repeated signature header reads as malformed, never as one of its
 * copies.
 */
function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers.get as (name: string) => string | null)(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const lower = name.toLowerCase();
  let value = record[lower];
  if (value === undefined) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
    value = key === undefined ? undefined : record[key];
  }
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

/** The body parsed as `{ event, timestamp, data }`; called only on a body whose signature matched. */
function parseEventBody(payload: string | Uint8Array): UnknownWebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch {
    throw new WebhookVerificationError(
      'invalid_json',
      'the signed body is not valid UTF-8 JSON: pass the raw request body exactly as received.',
    );
  }
  if (!isEnvelope(parsed)) {
    throw new WebhookVerificationError(
      'invalid_json',
      'the signed body is JSON but not a webhook event: expected an object with a string "event", a string "timestamp" and an object "data".',
    );
  }
  return parsed;
}

function isEnvelope(value: unknown): value is UnknownWebhookEvent {
  if (!isObject(value)) return false;
  const { event, timestamp, data } = value as Record<string, unknown>;
  return typeof event === 'string' && typeof timestamp === 'string' && isObject(data);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses an event whose timestamp is more than `toleranceSeconds` away from now, either way, or is not a date-time. */
function checkTolerance(timestamp: string, toleranceSeconds: number, nowMs: number): void {
  const eventMs = Date.parse(timestamp);
  if (Number.isNaN(eventMs)) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `the event's timestamp "${timestamp}" is not a date-time, so it cannot be checked against toleranceSeconds.`,
    );
  }
  const distanceSeconds = Math.abs(nowMs - eventMs) / 1000;
  if (distanceSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `the event's timestamp ${timestamp} is ${Math.round(distanceSeconds)} s from now, more than toleranceSeconds (${toleranceSeconds}). Check the receiver's clock. Every retry of a delivery keeps the first attempt's timestamp, and retries come up to ${RETRY_SCHEDULE_SECONDS} s later, so a tolerance shorter than that refuses genuine retries.`,
    );
  }
}

function mismatch(): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    "the signature does not match the body: pass the raw request body (the exact bytes received, not a parsed and re-serialised object) and the endpoint's signing secret.",
  );
}
