// The HTTP answers to a delivery: one outcome each, its status, and a JSON body for whoever reads
// the sender's log. The handler and every adapter answer through these, so a status never
// depends on the framework.
import type { WebhookVerificationReason } from './errors';

/**
 * What became of a request:
 *
 * - 200: `processed` (a handler ran, or the built-in ping answer), `duplicate` (the delivery was
 *   processed before: a retry, or a replay under another id), `ignored` (no handler for the
 *   event: acknowledged);
 * - 401: `missing_signature`, `malformed_signature`, `signature_mismatch`;
 * - 400: `invalid_json`, `event_mismatch`, `timestamp_out_of_tolerance`, `missing_delivery_id`,
 *   `unreadable_body`;
 * - 405 `method_not_allowed`, 409 `delivery_in_progress`, 413 `body_too_large`;
 * - 500: `handler_failed` (the event's handler threw), `store_failed`, `setup_error` (the
 *   receiver is set up wrongly, a body parsed before the handler for one). The sender retries.
 */
export type WebhookOutcome =
  | 'processed'
  | 'duplicate'
  | 'ignored'
  | Exclude<WebhookVerificationReason, 'unknown_event'>
  | 'missing_delivery_id'
  | 'unreadable_body'
  | 'method_not_allowed'
  | 'delivery_in_progress'
  | 'body_too_large'
  | 'handler_failed'
  | 'store_failed'
  | 'setup_error';

/** The HTTP answer to a delivery, for any framework: a status, headers and a JSON body. */
export interface WebhookAnswer {
  readonly status: number;
  readonly outcome: WebhookOutcome;
  readonly headers: Readonly<Record<string, string>>;
  /** `{"message": string, "outcome": WebhookOutcome}` as JSON text. */
  readonly body: string;
}

const STATUS: Readonly<Record<WebhookOutcome, number>> = {
  processed: 200,
  duplicate: 200,
  ignored: 200,
  missing_signature: 401,
  malformed_signature: 401,
  signature_mismatch: 401,
  invalid_json: 400,
  event_mismatch: 400,
  timestamp_out_of_tolerance: 400,
  missing_delivery_id: 400,
  unreadable_body: 400,
  method_not_allowed: 405,
  delivery_in_progress: 409,
  body_too_large: 413,
  handler_failed: 500,
  store_failed: 500,
  setup_error: 500,
};

/** The answer of an outcome, with its status and `message` for whoever reads the sender's log. */
export function webhookAnswer(
  outcome: WebhookOutcome,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): WebhookAnswer {
  return {
    status: STATUS[outcome],
    outcome,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ message, outcome }),
  };
}

/** The 405 answered to anything but POST. */
export function methodNotAllowed(): WebhookAnswer {
  return webhookAnswer('method_not_allowed', 'Webhook deliveries are POST requests.', { allow: 'POST' });
}

/** The 413 answered to a body larger than `maxBodyBytes`. */
export function bodyTooLarge(maxBodyBytes: number): WebhookAnswer {
  return webhookAnswer('body_too_large', `The body is larger than ${maxBodyBytes} bytes (maxBodyBytes).`);
}

/** The 400 answered when the body could not be read to its end. */
export function unreadableBody(): WebhookAnswer {
  return webhookAnswer('unreadable_body', 'The request body could not be read to its end.');
}
