import type { DeletedReceipt, Receipt, WebhookEventName } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import { randomUuid } from '../random/random-uuid';
import type { CoreEnv } from '../routing/core-env';
import type { AccountState } from '../state/account-state';
import { subscribesTo } from '../webhooks/subscribes-to';
import type { DeliveryRecord } from './delivery-record';

/** The events a receipt change fires. */
export type ReceiptEventName = Exclude<WebhookEventName, 'ping'>;

/**
 * Writes one pending delivery per enabled endpoint of the account that takes the event, in the
 * same synchronous change as the receipt, so a dispatcher can sign and send them later. Every
 * delivery of one event carries the same body text.
 *
 * @example
 * ```ts
 * enqueueEvent(env, account, 'receipt.created', receipt, nowMs);
 * ```
 */
export function enqueueEvent(
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
    const delivery: DeliveryRecord = Object.freeze({
      id: randomUuid(env.randomBytes),
      webhook_id: webhook.id,
      event,
      state: 'pending',
      next_attempt_at: timestamp,
      created_at: timestamp,
      attempts: Object.freeze([]) as unknown as DeliveryRecord['attempts'],
      account_id: account.record.id,
      body,
    });
    account.deliveries.push(delivery);
  }
}
