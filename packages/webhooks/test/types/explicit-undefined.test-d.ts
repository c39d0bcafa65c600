// Under `exactOptionalPropertyTypes` (the repository's tsconfig, and many integrators'), an
// optional property typed `name?: T` refuses an explicit `undefined`. Every option of the package
// is typed `name?: T | undefined`, and reads `undefined` as not given, so that a value from an
// optional setting passes through without a conditional spread.
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ConstructEventOptions,
  type FastifyPluginOptions,
  type MemoryDeliveryStoreOptions,
  type WebhookHandlerOptions,
  constructEvent,
  createMemoryDeliveryStore,
  createWebhookHandler,
  toFastifyPlugin,
} from '../../src/index';
import * as web from '../../src/web';

declare const secret: string;
declare const body: string;
/** Settings as an application reads them: each may be missing. */
declare const settings: {
  readonly toleranceSeconds?: number;
  readonly maxBodyBytes?: number;
  readonly ttlSeconds?: number;
  readonly path?: string;
  readonly now?: () => number;
  readonly onCreated?: (event: unknown) => void;
};

describe('every option accepts an explicit undefined', () => {
  it('constructEvent: toleranceSeconds and now, on both builds', () => {
    const options = { secret, toleranceSeconds: undefined, now: undefined } as const;
    expectTypeOf(options).toExtend<ConstructEventOptions>();
    void constructEvent(body, {}, options);
    void web.constructEvent(body, {}, options);
    void constructEvent(body, {}, { secret, toleranceSeconds: settings.toleranceSeconds, now: settings.now });
  });

  it('createWebhookHandler: every option but secret and on, and each handler in on, on both builds', () => {
    const options = {
      secret,
      on: {
        'receipt.created': undefined,
        'receipt.updated': undefined,
        'receipt.disposed': undefined,
        'receipt.deleted': undefined,
        ping: undefined,
      },
      onUnknownEvent: undefined,
      store: undefined,
      toleranceSeconds: undefined,
      now: undefined,
      maxBodyBytes: undefined,
      onError: undefined,
    } as const;
    expectTypeOf(options).toExtend<WebhookHandlerOptions>();
    createWebhookHandler(options);
    web.createWebhookHandler(options);
    createWebhookHandler({
      secret,
      on: { 'receipt.created': settings.onCreated },
      toleranceSeconds: settings.toleranceSeconds,
      maxBodyBytes: settings.maxBodyBytes,
      now: settings.now,
    });
  });

  it('createMemoryDeliveryStore: ttlSeconds, maxEntries and now, and the options object itself', () => {
    const options = { ttlSeconds: undefined, maxEntries: undefined, now: undefined } as const;
    expectTypeOf(options).toExtend<MemoryDeliveryStoreOptions>();
    createMemoryDeliveryStore(options);
    createMemoryDeliveryStore(undefined);
    createMemoryDeliveryStore({ ttlSeconds: settings.ttlSeconds, now: settings.now });
  });

  it('toFastifyPlugin: path, and the options object itself', () => {
    const webhooks = createWebhookHandler({ secret, on: {} });
    expectTypeOf({ path: undefined } as const).toExtend<FastifyPluginOptions>();
    toFastifyPlugin(webhooks, { path: settings.path });
    toFastifyPlugin(webhooks, undefined);
  });
});

describe('an explicit undefined stays refused where a value is required, and wrong types stay refused', () => {
  it('refuses an undefined secret or on', () => {
    // @ts-expect-error: the secret is required
    createWebhookHandler({ secret: undefined, on: {} });
    // @ts-expect-error: the handlers are required
    createWebhookHandler({ secret, on: undefined });
    // @ts-expect-error: the secret is required
    void constructEvent(body, {}, { secret: undefined });
  });

  it('refuses an option of the wrong type', () => {
    // @ts-expect-error: toleranceSeconds is a number of seconds
    void constructEvent(body, {}, { secret, toleranceSeconds: '300' });
    // @ts-expect-error: store is a DeliveryStore or false
    createWebhookHandler({ secret, on: {}, store: true });
    // @ts-expect-error: ttlSeconds is a number of seconds
    createMemoryDeliveryStore({ ttlSeconds: null });
  });
});
