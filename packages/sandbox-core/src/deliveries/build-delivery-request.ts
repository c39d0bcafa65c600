import { HEADERS, WEBHOOK_USER_AGENT } from '@boundbook/types';
import type { DeliveryRecord } from '../outbox/delivery-record';
import { hmacSha256Hex } from '../outbox/hmac-sha256-hex';
import { signDelivery } from '../outbox/sign-delivery';
import type { WebhookRecord } from '../webhooks/webhook-record';
import type { DeliveryRequest } from './delivery-sender';

/**
 * The signed request of one attempt of a delivery: `POST` to the endpoint's URL, the stored body
 * as it is, `X-SVC-Delivery` the delivery's id (the same on every attempt) and `X-SVC-Signature`
 * the HMAC-SHA256 of the body keyed with the endpoint's whole secret, computed with `hmac`.
 *
 * @example
 * ```ts
 * const request = buildDeliveryRequest(delivery, webhook);
 * request.headers['X-SVC-Signature']; // 'sha256=5d5b09f6...'
 * ```
 */
export function buildDeliveryRequest(
  delivery: DeliveryRecord,
  webhook: WebhookRecord,
  hmac: (key: string, message: string) => string = hmacSha256Hex,
): DeliveryRequest {
  return {
    method: 'POST',
    url: webhook.url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      [HEADERS.event]: delivery.event,
      [HEADERS.delivery]: delivery.id,
      [HEADERS.signature]: signDelivery(webhook.secret, delivery.body, hmac),
    },
    body: delivery.body,
  };
}
