import { formatTimestamp } from '../clock/format-timestamp';
import { findDelivery } from '../deliveries/find-delivery';
import { PendingAnswer } from '../deliveries/pending-answer';
import { putDelivery } from '../deliveries/put-delivery';
import { renderDelivery } from '../deliveries/render-delivery';
import { recordNotFound } from '../errors/not-found';
import { buildDelivery } from '../outbox/build-delivery';
import type { AccountOperation } from '../routing/operation';
import { fieldInvalid } from '../validation/validation-failed';

/** The `message` of every ping. */
const PING_MESSAGE = 'Webhook test ping.';

/**
 * `POST /_sandbox/webhooks/{id}/ping`, the dashboard's Test action: a `ping` delivery to the
 * endpoint whatever events it takes, `{"webhook_id", "message"}`, whose first attempt is made
 * before the answer; a failed one is retried like any delivery. A disabled endpoint is 422.
 *
 * @example
 * ```ts
 * pingWebhook(context).body; // a PendingAnswer: the delivery after its first attempt
 * ```
 */
export const pingWebhook: AccountOperation = ({ state, env, account, id, nowMs }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  if (!webhook.enabled) {
    throw fieldInvalid(
      'webhook_id',
      `The webhook endpoint ${id} is disabled: enable it with POST /_sandbox/webhooks/${id}/enable before testing it.`,
    );
  }
  const timestamp = formatTimestamp(nowMs);
  const body = JSON.stringify({ event: 'ping', timestamp, data: { webhook_id: id, message: PING_MESSAGE } });
  const delivery = buildDelivery(env.randomBytes, {
    accountId: account.record.id,
    webhookId: id,
    event: 'ping',
    body,
    timestamp,
  });
  putDelivery(state, account, delivery);
  state.version += 1;
  const work = { kind: 'attempt', accountId: account.record.id, deliveryId: delivery.id, scheduled: true } as const;
  const render = () => ({ data: renderDelivery(findDelivery(account, delivery.id) ?? delivery) });
  return { status: 200, body: new PendingAnswer(work, render) };
};
