import {
  SECRET_PREFIX,
  WEBHOOK_EVENT_NAMES,
  WILDCARD_SUBSCRIPTION,
  type SandboxWebhookEndpointState,
  type WebhookEndpoint,
  type WebhookSubscription,
} from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation, ChangeContext } from '../state/operation';
import type { WebhookRecord } from '../state/records';
import { randomBase62 } from '../support/crypto';
import { recordNotFound } from '../support/errors';
import {
  fieldInvalid,
  inputShape,
  laravelMessage,
  readInput,
  reportDuplicates,
  httpUrl,
  type RequestBody,
} from '../support/input';
import { formatTimestamp } from '../support/time';
import { cancelDeliveries } from './attempts';
import { applyChaos, readChaosInput, renderChaos } from './chaos';
import { eventTimestamp, newDelivery, pendingDelivery } from './deliveries';

// Webhook endpoints: the service API's `/webhooks`, and the dashboard's Test and re-enable
// actions as control calls.

const SECRET_LENGTH = 40;
const PING_MESSAGE = 'Webhook test ping.';

/** The contract's `WebhookEndpoint`: never the owner, the secret or the failure count. */
function renderWebhook(record: WebhookRecord): WebhookEndpoint {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The control API's `WebhookEndpointState`: the endpoint, its consecutive failures and its delivery chaos. */
function renderWebhookState(record: WebhookRecord): SandboxWebhookEndpointState {
  return {
    ...renderWebhook(record),
    consecutive_failures: record.consecutive_failures,
    chaos: renderChaos(record.chaos),
  };
}

/**
 * `GET /_sandbox/webhooks`: the account's endpoints as the dashboard shows them, each with its
 * count of consecutive failed attempts (10 disables it) and its delivery chaos.
 */
export const listWebhookStates: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: Array.from(account.webhooks.values(), renderWebhookState) },
});

/** `GET /webhooks`: the account's endpoints in id order, unpaginated. */
export const listWebhooks: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: Array.from(account.webhooks.values(), renderWebhook) },
});

const WEBHOOK_INPUT = inputShape<{ url: string; events: WebhookSubscription[] }>(['url', 'events'], () =>
  Joi.object({
    url: httpUrl(255).required(),
    events: Joi.array()
      .min(1)
      .items(
        Joi.string()
          .trim()
          .valid(...WEBHOOK_EVENT_NAMES, WILDCARD_SUBSCRIPTION),
      )
      .required(),
  }),
);

/** A new endpoint's fields, checked as `POST /webhooks` checks them. */
export function readWebhookInput(body: RequestBody): { url: string; events: WebhookSubscription[] } {
  return readInput(WEBHOOK_INPUT, body, (value, errors) => {
    if (value.events === undefined) return;
    reportDuplicates('events', value.events, errors);
    if (value.events.length > 1 && value.events.includes(WILDCARD_SUBSCRIPTION)) {
      errors.add('events', laravelMessage({ type: 'array.wildcard', label: 'events', required: true }));
    }
  });
}

/**
 * Adds an enabled endpoint with a new signing secret, or the fixed one a fixtures file gives
 * (checked there).
 */
export function addWebhook(
  { store, env, account, nowMs }: ChangeContext,
  { url, events }: { url: string; events: WebhookSubscription[] },
  secret = `${SECRET_PREFIX}${randomBase62(env.randomBytes, SECRET_LENGTH)}`,
): WebhookRecord {
  const timestamp = formatTimestamp(nowMs);
  const webhook: WebhookRecord = {
    id: store.nextId('webhook'),
    url,
    events,
    enabled: true,
    created_at: timestamp,
    updated_at: timestamp,
    account_id: account.record.id,
    secret,
    consecutive_failures: 0,
    chaos: null,
  };
  store.put(account, 'webhooks', webhook);
  return webhook;
}

/**
 * `POST /webhooks`: a new enabled endpoint with a new signing secret, which this answer alone
 * shows. `events` holds event names, each once, or `*` alone.
 */
export const createWebhook: AccountOperation = (context) => {
  const webhook = addWebhook(context, readWebhookInput(context.request.body));
  return { status: 201, body: { data: renderWebhook(webhook), secret: webhook.secret } };
};

/** `DELETE /webhooks/{id}`: deletes an endpoint and cancels its pending deliveries. */
export const deleteWebhook: AccountOperation = ({ store, account, id }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  store.remove(account, 'webhooks', webhook);
  cancelDeliveries(store, account, id);
  return { status: 204 };
};

/**
 * `POST /_sandbox/webhooks/{id}/enable`: the dashboard's re-enable. The endpoint is enabled and
 * its count of consecutive failures starts again from zero.
 */
export const enableWebhook: AccountOperation = ({ store, account, id, nowMs }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  if (webhook.enabled && webhook.consecutive_failures === 0)
    return { status: 200, body: { data: renderWebhook(webhook) } };
  store.put(account, 'webhooks', {
    ...webhook,
    consecutive_failures: 0,
    ...(!webhook.enabled && { enabled: true, updated_at: formatTimestamp(nowMs) }),
  });
  return { status: 200, body: { data: renderWebhook(account.webhooks.get(id)!) } };
};

/**
 * `POST /_sandbox/webhooks/{id}/ping`: the dashboard's Test. A `ping` delivery to the endpoint,
 * whatever events it takes, answered once its first attempt is recorded.
 */
export const pingWebhook: AccountOperation = (context) => {
  const { store, env, account, id, nowMs } = context;
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  if (!webhook.enabled) {
    throw fieldInvalid(
      'webhook_id',
      `The webhook endpoint ${id} is disabled: enable it with POST /_sandbox/webhooks/${id}/enable before testing it.`,
    );
  }
  const timestamp = eventTimestamp(store, account, nowMs);
  const body = JSON.stringify({ event: 'ping', timestamp, data: { webhook_id: id, message: PING_MESSAGE } });
  const input = { accountId: account.record.id, webhookId: id, event: 'ping', body, timestamp, dueMs: nowMs } as const;
  // Never held nor delayed: the answer reports its attempt.
  const delivery = applyChaos(context, webhook, newDelivery(env.randomBytes, input), 'at-once');
  store.put(account, 'deliveries', delivery);
  return { status: 200, body: pendingDelivery(account, delivery, true) };
};

/**
 * `PUT /_sandbox/webhooks/{id}/chaos`: sets the endpoint's delivery chaos (settings all off clear
 * it), whether the endpoint is enabled or not, and answers the endpoint with it. The settings
 * apply to the deliveries made from now on, counted afresh.
 */
export const putWebhookChaos: AccountOperation = ({ store, env, account, id, request }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  const chaos = readChaosInput(request.body, env.randomBytes);
  store.put(account, 'webhooks', { ...webhook, chaos });
  return { status: 200, body: { data: renderWebhookState(account.webhooks.get(id)!) } };
};

/**
 * `DELETE /_sandbox/webhooks/{id}/chaos`: clears the endpoint's delivery chaos. Deliveries already
 * made keep the timing and count they were given.
 */
export const deleteWebhookChaos: AccountOperation = ({ store, account, id }) => {
  const webhook = account.webhooks.get(id);
  if (webhook === undefined) throw recordNotFound();
  if (webhook.chaos !== null) store.put(account, 'webhooks', { ...webhook, chaos: null });
  return { status: 204 };
};
