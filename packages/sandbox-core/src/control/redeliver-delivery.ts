import { findDelivery } from '../deliveries/find-delivery';
import { PendingAnswer } from '../deliveries/pending-answer';
import { renderDelivery } from '../deliveries/render-delivery';
import { recordNotFound } from '../errors/not-found';
import type { AccountOperation } from '../routing/operation';
import { fieldInvalid } from '../validation/validation-failed';

/**
 * `POST /_sandbox/deliveries/{id}/redeliver`: one more attempt of the delivery before the
 * answer, whatever its state, with the same id and body. A 2xx makes it `succeeded` (and drops
 * its scheduled retry); a failure leaves its state and schedule as they were, and counts towards
 * the endpoint's consecutive failures. An endpoint that is disabled or deleted is 422.
 *
 * @example
 * ```ts
 * redeliverDelivery(context).body; // a PendingAnswer: the delivery after the attempt
 * ```
 */
export const redeliverDelivery: AccountOperation = ({ account, key }) => {
  const delivery = findDelivery(account, key);
  if (delivery === undefined) throw recordNotFound();
  const webhook = account.webhooks.get(delivery.webhook_id);
  if (webhook === undefined) {
    throw fieldInvalid('webhook_id', `The webhook endpoint ${delivery.webhook_id} of this delivery was deleted.`);
  }
  if (!webhook.enabled) {
    throw fieldInvalid(
      'webhook_id',
      `The webhook endpoint ${webhook.id} of this delivery is disabled: enable it with POST /_sandbox/webhooks/${webhook.id}/enable first.`,
    );
  }
  const work = { kind: 'attempt', accountId: account.record.id, deliveryId: delivery.id, scheduled: false } as const;
  const render = () => ({ data: renderDelivery(findDelivery(account, delivery.id) ?? delivery) });
  return { status: 200, body: new PendingAnswer(work, render) };
};
