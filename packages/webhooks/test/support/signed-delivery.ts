import { randomUUID } from 'node:crypto';
import { signDelivery } from '@fflkit/sandbox-core';
import { HEADERS, WEBHOOK_USER_AGENT, type WebhookEvent } from '@fflkit/types';

/** The secret the tests' endpoints are created with. */
export const SECRET = 'whsec_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e';

/** A delivery as the service sends it: the exact body and its headers. */
export interface SignedDelivery {
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly deliveryId: string;
}

/**
 * A delivery of `event` signed by sandbox-core's `signDelivery` (the sandbox's own signer), with
 * the headers of the contract: `X-SVC-Event`, `X-SVC-Signature`, `X-SVC-Delivery` (a UUID),
 * `User-Agent` and `Content-Type`. `body` overrides the serialised event, for malformed cases.
 */
export function signedDelivery(
  event: WebhookEvent | { event: string; timestamp: string; data: object },
  options: { secret?: string; deliveryId?: string; body?: string } = {},
): SignedDelivery {
  const body = options.body ?? JSON.stringify(event);
  const deliveryId = options.deliveryId ?? randomUUID();
  return {
    body,
    deliveryId,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      [HEADERS.event]: event.event,
      [HEADERS.signature]: signDelivery(options.secret ?? SECRET, body),
      [HEADERS.delivery]: deliveryId,
    },
  };
}
