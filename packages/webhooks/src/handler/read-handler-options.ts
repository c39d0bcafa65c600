import { WEBHOOK_EVENT_NAMES } from '@boundbook/types';
import { createMemoryDeliveryStore } from '../dedup/create-memory-delivery-store';
import type { DeliveryStore } from '../dedup/delivery-store';
import { describeValue } from '../errors/describe-value';
import { MESSAGE_PREFIX, misuseError } from '../errors/misuse-error';
import { type VerifyOptions, readVerifyOptions } from '../events/read-verify-options';
import type { UnknownWebhookEvent } from '../events/unknown-webhook-event';
import { readOptionsObject } from '../options/read-options-object';
import { readPositiveNumber } from '../options/read-positive-number';
import { readSecrets } from '../signature/read-secrets';
import type { WebhookContext, WebhookErrorInfo, WebhookEventHandlers } from './webhook-handler-options';

/** `createWebhookHandler`'s options, checked, with their defaults. */
export interface HandlerSettings {
  readonly secrets: readonly string[];
  readonly on: WebhookEventHandlers;
  readonly onUnknownEvent: ((event: UnknownWebhookEvent, context: WebhookContext) => unknown) | undefined;
  readonly store: DeliveryStore | undefined;
  readonly verify: VerifyOptions;
  readonly maxBodyBytes: number;
  readonly onError: (error: unknown, info: WebhookErrorInfo) => void;
}

const CALLER = 'createWebhookHandler';
const OPTIONS = ['secret', 'on', 'onUnknownEvent', 'store', 'toleranceSeconds', 'now', 'maxBodyBytes', 'onError'] as const;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const EVENT_NAMES: readonly string[] = WEBHOOK_EVENT_NAMES;

/**
 * Checks `createWebhookHandler`'s options once, at setup: a mistake throws a `TypeError` there,
 * never a 500 at the first delivery.
 *
 * @example
 * ```ts
 * const settings = readHandlerOptions({ secret, on: { ping: () => {} } });
 * ```
 */
export function readHandlerOptions(options: unknown): HandlerSettings {
  const record = readOptionsObject(options, OPTIONS, CALLER);
  const verify = readVerifyOptions(record, CALLER);
  const store = record['store'];
  return {
    secrets: readSecrets(record['secret'], CALLER),
    on: readEventHandlers(record['on']),
    onUnknownEvent: readFunction(record['onUnknownEvent'], 'onUnknownEvent') as HandlerSettings['onUnknownEvent'],
    store: store === undefined ? createMemoryDeliveryStore({ now: verify.now }) : store === false ? undefined : readStore(store),
    verify,
    maxBodyBytes: readPositiveNumber(record['maxBodyBytes'], 'maxBodyBytes', CALLER, true) ?? DEFAULT_MAX_BODY_BYTES,
    onError: (readFunction(record['onError'], 'onError') as HandlerSettings['onError'] | undefined) ?? reportToConsole,
  };
}

function readEventHandlers(on: unknown): WebhookEventHandlers {
  if (typeof on !== 'object' || on === null || Array.isArray(on)) {
    throw misuseError(`${CALLER}: on must be an object of handlers by event name ({ 'receipt.created': (event, context) => ... }); got ${describeValue(on)}`);
  }
  for (const [name, handler] of Object.entries(on)) {
    if (!EVENT_NAMES.includes(name)) {
      throw misuseError(`${CALLER}: on names an unknown event "${name}"; the events are ${EVENT_NAMES.join(', ')} (use onUnknownEvent for newer ones)`);
    }
    readFunction(handler, `on['${name}']`);
  }
  return on as WebhookEventHandlers;
}

function readStore(store: unknown): DeliveryStore {
  const methods = ['claim', 'commit', 'release'] as const;
  if (typeof store === 'object' && store !== null && methods.every((method) => typeof (store as Record<string, unknown>)[method] === 'function')) {
    return store as DeliveryStore;
  }
  throw misuseError(`${CALLER}: store must be a DeliveryStore (claim, commit and release) or false; got ${describeValue(store)} without them all`);
}

function readFunction(value: unknown, name: string): unknown {
  if (value === undefined || typeof value === 'function') return value;
  throw misuseError(`${CALLER}: ${name} must be a function; got ${describeValue(value)}`);
}

function reportToConsole(error: unknown, info: WebhookErrorInfo): void {
  console.error(`${MESSAGE_PREFIX} ${info.outcome}: delivery ${info.deliveryId ?? '(no id)'} (${info.event ?? 'no event'}) was answered 500 and will be retried.`, error);
}
