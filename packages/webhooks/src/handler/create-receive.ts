import { HEADERS } from '@boundbook/types';
import type { DeliveryClaim } from '../dedup/delivery-store';
import { isMisuseError, misuseError } from '../errors/misuse-error';
import { WebhookVerificationError } from '../errors/webhook-verification-error';
import { readHeadersArgument } from '../events/read-headers-argument';
import { type VerifiedDelivery, verifyDelivery } from '../events/verify-delivery';
import type { MatchSecret } from '../signature/match-secret';
import { readPayload } from '../signature/read-payload';
import type { HandlerSettings } from './read-handler-options';
import { type WebhookAnswer, webhookAnswer } from './webhook-answer';
import type { WebhookDelivery } from './webhook-handler';
import type { WebhookContext, WebhookErrorInfo } from './webhook-handler-options';

type EventHandler = (event: never, context: WebhookContext) => unknown;

const CLAIMS: readonly DeliveryClaim[] = ['claimed', 'processed', 'in_progress'];

/**
 * The handler's `receive`: verify, then deduplicate on `X-SVC-Delivery` (claim, run the event's
 * handler, commit; release when it throws), and answer. Every failure becomes an answer, so the
 * returned function never rejects.
 *
 * @example
 * ```ts
 * const receive = createReceive(matchNodeSecret, readHandlerOptions(options));
 * const answer = await receive({ payload: rawBody, headers });
 * ```
 */
export function createReceive(matchSecret: MatchSecret, settings: HandlerSettings): (delivery: WebhookDelivery) => Promise<WebhookAnswer> {
  const { store } = settings;

  const fail = (outcome: WebhookErrorInfo['outcome'], error: unknown, info: Omit<WebhookErrorInfo, 'outcome'>): WebhookAnswer => {
    report(error, { outcome, ...info });
    // A setup mistake is the receiver's own message and safe to show; a handler's error may not be.
    const message = outcome === 'setup_error' && isMisuseError(error) ? error.message : 'The receiver failed to process the delivery; the sender will retry it.';
    return webhookAnswer(outcome, message);
  };
  const report = (error: unknown, info: WebhookErrorInfo): void => {
    try {
      settings.onError(error, info);
    } catch {
      // A failing error reporter must not turn an answer into a rejected promise.
    }
  };

  return async (delivery) => {
    let verified: VerifiedDelivery;
    try {
      const payload = readPayload(delivery?.payload, 'receive');
      verified = await verifyDelivery(matchSecret, settings.secrets, payload, readHeadersArgument(delivery.headers, 'receive'), settings.verify);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return webhookAnswer(error.reason as WebhookAnswer['outcome'], error.message);
      return fail('setup_error', error, { deliveryId: undefined, event: undefined });
    }
    const { event, known, deliveryId, secretIndex } = verified;
    if (deliveryId === undefined) {
      return webhookAnswer('missing_delivery_id', `The request has no ${HEADERS.delivery} header, which every delivery carries.`);
    }
    const handler = (known ? settings.on[event.event as keyof HandlerSettings['on']] : settings.onUnknownEvent) as EventHandler | undefined;
    if (handler === undefined) {
      return event.event === 'ping'
        ? webhookAnswer('processed', 'Pong.')
        : webhookAnswer('ignored', `No handler for ${event.event}; the delivery is acknowledged.`);
    }
    const info = { deliveryId, event: event.event };

    let claim: unknown = 'claimed';
    try {
      if (store) claim = await store.claim(deliveryId);
    } catch (error) {
      return fail('store_failed', error, info);
    }
    if (!CLAIMS.includes(claim as DeliveryClaim)) {
      return fail('setup_error', misuseError(`store.claim must resolve to 'claimed', 'processed' or 'in_progress'; it gave ${String(claim)}`), info);
    }
    if (claim === 'processed') return webhookAnswer('duplicate', 'Delivery already processed.');
    if (claim === 'in_progress') return webhookAnswer('delivery_in_progress', 'The delivery is being processed by another request; retry later.');

    try {
      await handler(event as never, { deliveryId, secretIndex });
    } catch (error) {
      try {
        await store?.release(deliveryId);
      } catch (releaseError) {
        report(releaseError, { outcome: 'store_failed', ...info });
      }
      return fail('handler_failed', error, info);
    }
    try {
      await store?.commit(deliveryId);
    } catch (error) {
      // The handler has run: answering 500 would have the sender deliver it again.
      report(error, { outcome: 'store_failed', ...info });
    }
    return webhookAnswer('processed', 'Delivery processed.');
  };
}
