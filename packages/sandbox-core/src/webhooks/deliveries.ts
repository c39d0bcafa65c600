import {
  WILDCARD_SUBSCRIPTION,
  type DeletedReceipt,
  type Receipt,
  type SandboxDelivery,
  type WebhookEventName,
} from '@fflkit/types';
import type { AccountOperation, ChangeContext } from '../state/operation';
import type { DeliveryRecord, WebhookRecord } from '../state/records';
import { findDelivery } from '../state/collections';
import type { AccountState, CoreStore } from '../state/store';
import { type RandomBytes, randomUuid } from '../support/crypto';
import { ApiError } from '../support/errors';
import { fieldInvalid } from '../support/input';
import { QueryReader } from '../support/request';
import { buildDeliveryRequest } from './attempts';
import { applyChaos } from './chaos';
import { formatInstant } from '../support/time';

// The outbox: one delivery record per event and subscribed endpoint, written in the same
// transaction as the change that fired the event, and what the control API shows of them.

/** The events a receipt change fires. */
export type ReceiptEventName = Exclude<WebhookEventName, 'ping'>;

/** What a new delivery is made of. */
export interface NewDelivery {
  readonly accountId: number;
  readonly webhookId: number;
  readonly event: WebhookEventName;
  /** The body text `{"event","timestamp","data"}`, shared by the deliveries of one event. */
  readonly body: string;
  /** The event's `timestamp`: the delivery's `created_at`. */
  readonly timestamp: string;
  /** When the first attempt falls due: the account's time, in epoch milliseconds. */
  readonly dueMs: number;
}

/** A new pending delivery, its first attempt due at once, with a random version 4 UUID. */
export function newDelivery(randomBytes: RandomBytes, input: NewDelivery): DeliveryRecord {
  return {
    id: randomUuid(randomBytes),
    webhook_id: input.webhookId,
    event: input.event,
    state: 'pending',
    next_attempt_at: formatInstant(input.dueMs),
    created_at: input.timestamp,
    attempts: [],
    account_id: input.accountId,
    body: input.body,
    scheduled_attempts: 0,
  };
}

/** Whether an endpoint takes an event: enabled, and subscribed to it or to `*`. */
function subscribesTo(webhook: WebhookRecord, event: WebhookEventName): boolean {
  if (!webhook.enabled) return false;
  return webhook.events.includes(event) || webhook.events.includes(WILDCARD_SUBSCRIPTION);
}

/**
 * The `timestamp` of a new event of the account, to the millisecond: its time, or a millisecond
 * after the account's last event when that is not earlier. Timestamps strictly increase within
 * an account, so two distinct events never share body bytes (a receiver that deduplicates on the
 * body's digest would drop the second), even on a clock that a test holds still, and even after
 * a reset or a change taken back (the mark survives both).
 */
export function eventTimestamp(store: CoreStore, account: AccountState, nowMs: number): string {
  return formatInstant(store.stampEvent(account, nowMs));
}

/**
 * Writes one pending delivery per enabled endpoint of the account that takes the event, in the
 * same transaction as the receipt, with its first attempt due at once, or when the endpoint's
 * delivery chaos has it fall due. Every delivery of one event carries the same body text, stored
 * once in memory.
 */
export function enqueueEvent(context: ChangeContext, event: ReceiptEventName, data: Receipt | DeletedReceipt): void {
  const { store, env, account, nowMs } = context;
  let timestamp: string | undefined;
  let body: string | undefined;
  for (const webhook of account.webhooks.values()) {
    if (!subscribesTo(webhook, event)) continue;
    timestamp ??= eventTimestamp(store, account, nowMs);
    body ??= JSON.stringify({ event, timestamp, data });
    const delivery = { accountId: account.record.id, webhookId: webhook.id, event, body, timestamp, dueMs: nowMs };
    store.put(account, 'deliveries', applyChaos(context, webhook, newDelivery(env.randomBytes, delivery)));
  }
}

/** The control API's `Delivery` of a stored delivery: never its owner, body or internal counts. */
export function renderDelivery(record: DeliveryRecord): SandboxDelivery {
  return {
    id: record.id,
    webhook_id: record.webhook_id,
    event: record.event,
    state: record.state,
    next_attempt_at: record.next_attempt_at,
    created_at: record.created_at,
    attempts: record.attempts,
  };
}

/** Delivery attempts an answer waits for, made by the delivery engine before it is rendered. */
export type DeliveryWork =
  /** One attempt of one delivery, now: a ping's first (scheduled) or a redelivery (extra). */
  | { readonly kind: 'attempt'; readonly accountId: number; readonly deliveryId: string; readonly scheduled: boolean }
  /** Every attempt of the account that falls due up to `toMs`, in order of due time. */
  | { readonly kind: 'advance'; readonly accountId: number; readonly fromMs: number; readonly toMs: number };

/**
 * The body of an answer that waits for delivery attempts (a ping, a redelivery, a clock
 * advance): the core makes the attempts, then renders the body from the state they left.
 */
export class PendingAnswer {
  readonly work: DeliveryWork;
  readonly render: () => unknown;

  constructor(work: DeliveryWork, render: () => unknown) {
    this.work = work;
    this.render = render;
  }
}

/** The delivery's record rendered once the attempts of an answer are made. */
export function pendingDelivery(account: AccountState, delivery: DeliveryRecord, scheduled: boolean): PendingAnswer {
  const work = { kind: 'attempt', accountId: account.record.id, deliveryId: delivery.id, scheduled } as const;
  return new PendingAnswer(work, () => ({ data: renderDelivery(findDelivery(account, delivery.id) ?? delivery) }));
}

/**
 * `GET /_sandbox/deliveries`: the account's deliveries, newest first; `webhook_id` and `state`
 * keep those of one endpoint, or in one state.
 */
export const listDeliveries: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const webhookId = query.integer('webhook_id', 1, Number.MAX_SAFE_INTEGER);
  const state = query.oneOf('state', DELIVERY_STATES);
  query.assertValid(['webhook_id', 'state']);
  const data: SandboxDelivery[] = [];
  for (let position = account.deliveries.length - 1; position >= 0; position -= 1) {
    const delivery = account.deliveries[position]!;
    if (webhookId !== undefined && delivery.webhook_id !== webhookId) continue;
    if (state !== undefined && delivery.state !== state) continue;
    data.push(renderDelivery(delivery));
  }
  return { status: 200, body: { data } };
};

const DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

/**
 * `GET /_sandbox/deliveries/{id}`: one delivery with the signed request its attempts send (`null`
 * once its endpoint is deleted, with its secret).
 */
export const getDelivery: AccountOperation = ({ account, env, key }) => {
  const delivery = findDelivery(account, key.toLowerCase());
  if (delivery === undefined) throw noSuchDelivery(key);
  const webhook = account.webhooks.get(delivery.webhook_id);
  const request = webhook === undefined ? null : buildDeliveryRequest(delivery, webhook, env.hmacSha256Hex);
  return { status: 200, body: { data: { ...renderDelivery(delivery), request } } };
};

function noSuchDelivery(key: string): ApiError {
  return new ApiError(404, {
    message: `The account has no delivery ${key}: a delivery's id is the UUID that GET /_sandbox/deliveries lists, and X-SVC-Delivery carries.`,
  });
}

/**
 * `POST /_sandbox/deliveries/{id}/redeliver`: one more attempt of the delivery before the
 * answer, whatever its state, with the same id and body. A 2xx makes it `succeeded` (and drops
 * its scheduled retry); a failure leaves its state and schedule as they were, and counts towards
 * the endpoint's consecutive failures. An endpoint that is disabled or deleted is 422.
 */
export const redeliverDelivery: AccountOperation = ({ account, key }) => {
  const delivery = findDelivery(account, key.toLowerCase());
  if (delivery === undefined) throw noSuchDelivery(key);
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
  return { status: 200, body: pendingDelivery(account, delivery, false) };
};
