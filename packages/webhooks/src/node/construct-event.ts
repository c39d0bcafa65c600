import type { WebhookEvent } from '@boundbook/types';
import { type ConstructEventOptions, constructEventWith } from '../events/construct-event-with';
import type { WebhookHeaders } from '../events/read-header';
import type { WebhookPayload } from '../signature/read-payload';
import { matchNodeSecret } from './match-secret';

/**
 * Verifies a delivery and returns its typed event, narrowed on `event`. `payload` is the raw
 * body, `headers` the request's headers (a `Headers` object or a plain record, names matched
 * case-insensitively). Rejects with a `WebhookVerificationError` whose `reason` says why
 * (`missing_signature`, `malformed_signature`, `signature_mismatch`, `invalid_json`,
 * `event_mismatch`, `unknown_event`, `timestamp_out_of_tolerance`), and with a `TypeError` when
 * called wrongly (a parsed body, no secret).
 *
 * @example
 * ```ts
 * const event = await constructEvent(await request.arrayBuffer(), request.headers, { secret: process.env.WEBHOOK_SECRET! });
 * if (event.event === 'receipt.disposed') console.log(event.data.disposition.disposed_to);
 * ```
 */
export async function constructEvent(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  options: ConstructEventOptions,
): Promise<WebhookEvent> {
  return constructEventWith(matchNodeSecret, payload, headers, options);
}
