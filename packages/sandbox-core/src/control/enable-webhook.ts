import { formatTimestamp } from '../clock/format-timestamp';
import { recordNotFound } from '../errors/not-found';
import type { AccountOperation } from '../routing/operation';
import { renderWebhook } from '../webhooks/render-webhook';

/**
 * `POST /_sandbox/webhooks/{id}/enable`, the dashboard's re-enable action: enables the endpoint
 * and resets its count of consecutive failed attempts. The deliveries cancelled when it was
 * disabled stay cancelled; enabling an enabled endpoint only resets the count.
 *
 * @example
 * ```ts
 * enableWebhook(context).body; // { data: { id, url, events, enabled: true, created_at, updated_at } }
 * ```
 */
export const enableWebhook: AccountOperation = ({ state, account, id, nowMs }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  if (webhook.enabled && webhook.consecutive_failures === 0) return { status: 200, body: { data: renderWebhook(webhook) } };
  const enabled = Object.freeze({
    ...webhook,
    consecutive_failures: 0,
    ...(!webhook.enabled && { enabled: true, updated_at: formatTimestamp(nowMs) }),
  });
  account.webhooks.set(id, enabled);
  state.feed.upsert('webhooks', enabled);
  state.version += 1;
  return { status: 200, body: { data: renderWebhook(enabled) } };
};
