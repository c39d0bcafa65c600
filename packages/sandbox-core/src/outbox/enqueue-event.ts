import type { DeletedReceipt, Receipt, WebhookEventName } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import { putDelivery } from '../deliveries/put-delivery';
import type { CoreEnv } from '../routing/core-env';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import { subscribesTo } from '../webhooks/subscribes-to';
import { buildDelivery } from './build-delivery';

/** The events a receipt change fires. */
export type ReceiptEventName = Exclude<WebhookEventName, 'ping'>;

/**
 * Writes one pending delivery per enabled endpoint of the account that takes the event, in the
 * same synchronous change as the receipt (reported to the state's change feed), and schedules
 * its first attempt at once, so a dispatcher can sign and send it. Every delivery of one event
 * carries the same body text, stored once in memory.
 *
 * @example
 * ```ts
 * enqueueEvent(state, env, account, 'receipt.created', receipt, nowMs);
 * ```
 */
export function enqueueEvent(
  state: CoreState,
  env: CoreEnv,
  account: AccountState,
  event: ReceiptEventName,
  data: Receipt | DeletedReceipt,
  nowMs: number,
): void {
  const timestamp = formatTimestamp(nowMs);
  let body: string | undefined;
  for (const webhook of account.webhooks.values()) {
    if (!subscribesTo(webhook, event)) continue;
    body ??= JSON.stringify({ event, timestamp, data });
    const delivery = buildDelivery(env.randomBytes, {
      accountId: account.record.id,
      webhookId: webhook.id,
      event,
      body,
      timestamp,
    });
    putDelivery(state, account, delivery);
  }
}
