import { WEBHOOK_EVENT_NAMES } from '@fflkit/types';
import { expect } from 'vitest';
import type { WebhookAnswer } from '../../src/index';
import type { Build } from './builds';
import { type Recorder, recorder } from './recorder';
import { SECRET, type SignedDelivery } from './signed-delivery';

type Options = Parameters<Build['createWebhookHandler']>[0];

/**
 * A handler of one build with a recording handler for each receipt event (none for `ping`) and
 * a recording `onError`; `options` override any of its options.
 */
export function receiverSetup(createWebhookHandler: Build['createWebhookHandler'], options: Partial<Options> = {}) {
  const record: Recorder = recorder();
  const on = Object.fromEntries(
    WEBHOOK_EVENT_NAMES.filter((name) => name !== 'ping').map((name) => [name, record.handler(name)]),
  );
  const webhooks = createWebhookHandler({ secret: SECRET, on, onError: record.onError, ...options });
  const receive = (delivery: SignedDelivery) => webhooks.receive({ payload: delivery.body, headers: delivery.headers });
  return { record, webhooks, receive };
}

/** The JSON body of an answer, after checking its content type. */
export function parsed(answer: WebhookAnswer): { message: string; outcome: string } {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.body);
}
