import type { WebhookEvent } from '@boundbook/types';
import { WEBHOOK_EVENT_NAMES } from '@boundbook/types';
import { WebhookVerificationError } from '../errors/webhook-verification-error';
import type { MatchSecret } from '../signature/match-secret';
import { readPayload } from '../signature/read-payload';
import { type WebhookSecret, readSecrets } from '../signature/read-secrets';
import { readHeadersArgument } from './read-headers-argument';
import { readOptionsObject } from '../options/read-options-object';
import { readVerifyOptions } from './read-verify-options';
import { verifyDelivery } from './verify-delivery';

/** Options of `constructEvent`. */
export interface ConstructEventOptions {
  /** The endpoint's signing secret, or several while rotating. */
  readonly secret: WebhookSecret;
  /**
   * Refuse an event whose `timestamp` is further than this many seconds from now. Off by
   * default: every retry keeps the first attempt's timestamp, so a tolerance shorter than the
   * retry schedule (about 28 hours) refuses genuine retries.
   */
  readonly toleranceSeconds?: number;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: () => number;
}

const OPTIONS = ['secret', 'toleranceSeconds', 'now'] as const;

/**
 * `constructEvent` over a build's `matchSecret`.
 *
 * @example
 * ```ts
 * const event = await constructEventWith(matchNodeSecret, body, headers, { secret });
 * ```
 */
export async function constructEventWith(
  matchSecret: MatchSecret,
  payload: unknown,
  headers: unknown,
  options: unknown,
): Promise<WebhookEvent> {
  const record = readOptionsObject(options, OPTIONS, 'constructEvent');
  const secrets = readSecrets(record['secret'], 'constructEvent');
  const verifyOptions = readVerifyOptions(record, 'constructEvent');
  const bytes = readPayload(payload, 'constructEvent');
  const delivery = await verifyDelivery(matchSecret, secrets, bytes, readHeadersArgument(headers, 'constructEvent'), verifyOptions);
  if (!delivery.known) {
    throw new WebhookVerificationError(
      'unknown_event',
      `the event "${delivery.event.event}" is not one this version of @boundbook/webhooks knows (${WEBHOOK_EVENT_NAMES.join(', ')}). Acknowledge it with a 2xx so that the service does not retry it, and upgrade @boundbook/webhooks to handle it.`,
    );
  }
  return delivery.event as WebhookEvent;
}
