import {
  SECRET_PREFIX,
  WEBHOOK_EVENT_NAMES,
  WILDCARD_SUBSCRIPTION,
  type WebhookSubscription,
} from '@boundbook/types';
import Joi from 'joi';
import { formatTimestamp } from '../clock/format-timestamp';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import { randomBase62 } from '../random/random-base62';
import type { AccountOperation } from '../routing/operation';
import { nextId } from '../state/core-state';
import { FieldErrors } from '../validation/field-errors';
import { absoluteUrl } from '../validation/joi-rules';
import { laravelMessage } from '../validation/laravel-message';
import { lazySchema } from '../validation/lazy-schema';
import { reportDuplicates } from '../validation/report-duplicates';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { renderWebhook } from './render-webhook';
import type { WebhookRecord } from './webhook-record';

const FIELDS = ['url', 'events'] as const;
const REQUIRED = new Set(FIELDS);
/** Characters of randomness after `whsec_`: about 238 bits. */
const SECRET_LENGTH = 40;
const SCHEMA = lazySchema(() => Joi.object({
  url: absoluteUrl(255, ['http:', 'https:']).required(),
  events: Joi.array()
    .min(1)
    .items(Joi.string().trim().valid(...WEBHOOK_EVENT_NAMES, WILDCARD_SUBSCRIPTION))
    .required(),
}));

/**
 * `POST /webhooks`: a new, enabled endpoint. The answer carries the signing secret
 * (`whsec_...`), which is never shown again.
 *
 * @example
 * ```ts
 * // body: { "url": "https://hooks.example.com/boundbook", "events": ["*"] }
 * createWebhook(context).body; // { data: endpoint, secret: 'whsec_...' }
 * ```
 */
export const createWebhook: AccountOperation = ({ state, env, request, account, nowMs }) => {
  const errors = new FieldErrors();
  const body = pickFields(readJsonObject(request.body), FIELDS);
  const value = validateFields(SCHEMA, body, errors, REQUIRED);
  const events = value['events'] as WebhookSubscription[] | undefined;
  if (events !== undefined) reportDuplicates('events', events, errors);
  if (events !== undefined && events.length > 1 && events.includes(WILDCARD_SUBSCRIPTION)) {
    errors.add('events', laravelMessage({ type: 'array.wildcard', label: 'events', required: true }));
  }
  if (!errors.isEmpty || events === undefined) throw validationFailed(errors, FIELDS);
  const timestamp = formatTimestamp(nowMs);
  const secret = `${SECRET_PREFIX}${randomBase62(env.randomBytes, SECRET_LENGTH)}`;
  const webhook: WebhookRecord = Object.freeze({
    id: nextId(state, 'webhook'),
    url: value['url'] as string,
    events: Object.freeze(events) as WebhookSubscription[],
    enabled: true,
    created_at: timestamp,
    updated_at: timestamp,
    account_id: account.record.id,
    secret,
    consecutive_failures: 0,
  });
  account.webhooks.set(webhook.id, webhook);
  state.feed.upsert('webhooks', webhook);
  state.version += 1;
  return { status: 201, body: { data: renderWebhook(webhook), secret } };
};
