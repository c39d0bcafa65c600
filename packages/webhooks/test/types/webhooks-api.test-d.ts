import type { DeletedReceipt, Receipt } from '@fflkit/types';
import express from 'express';
import Fastify from 'fastify';
import Fastify4 from 'fastify4';
import { createServer } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type UnknownWebhookEvent,
  type WebhookContext,
  type WebhookEvent,
  constructEvent,
  createWebhookHandler,
  toExpressMiddleware,
  toFastifyPlugin,
  toNodeListener,
  verifySignature,
} from '../../src/index';
import * as web from '../../src/web';

declare const secret: string;
declare const request: Request;

describe('createWebhookHandler', () => {
  it('gives each handler its event narrowed to its name, and the context', () => {
    createWebhookHandler({
      secret,
      on: {
        'receipt.created': (event, context) => {
          expectTypeOf(event.event).toEqualTypeOf<'receipt.created'>();
          expectTypeOf(event.data).toEqualTypeOf<Receipt>();
          expectTypeOf(context).toEqualTypeOf<WebhookContext>();
        },
        'receipt.deleted': (event) => {
          expectTypeOf(event.data).toEqualTypeOf<DeletedReceipt>();
        },
        ping: async (event) => {
          expectTypeOf(event.data).toEqualTypeOf<{ webhook_id: number; message: string }>();
        },
      },
      onUnknownEvent: (event) => {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
      },
    });
  });

  it("refuses a handler for an event that does not exist, or one reading another event's fields", () => {
    createWebhookHandler({
      secret,
      on: {
        // @ts-expect-error: not an event name
        'receipt.moved': () => {},
      },
    });
    createWebhookHandler({
      secret,
      on: {
        // @ts-expect-error: a created receipt has no deleted_at
        'receipt.created': (event) => event.data.deleted_at,
      },
    });
  });

  it('takes the secret as a function giving it, or a promise of it, once it is known', () => {
    createWebhookHandler({ secret: () => secret, on: {} });
    createWebhookHandler({ secret: async () => [secret, secret], on: {} });
    // @ts-expect-error: the function gives a secret, not a number
    createWebhookHandler({ secret: () => 42, on: {} });
    // @ts-expect-error: a promise is given through a function, called at the first delivery
    createWebhookHandler({ secret: Promise.resolve(secret), on: {} });
  });

  it('refuses a parsed object as a payload', () => {
    const webhooks = createWebhookHandler({ secret, on: {} });
    // @ts-expect-error: a parsed body is not a payload
    void webhooks.receive({ payload: { event: 'ping' }, headers: {} });
  });
});

describe('constructEvent and verifySignature', () => {
  it('constructEvent resolves to the event union, the same on both builds', () => {
    expectTypeOf(
      constructEvent(request.body as never, request.headers, { secret }),
    ).resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(web.constructEvent).toEqualTypeOf(constructEvent);
  });

  it('verifySignature takes the header as Headers.get and Node give it', () => {
    expectTypeOf(verifySignature).parameter(2).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(verifySignature).returns.resolves.toBeBoolean();
  });
});

describe('the adapters', () => {
  it('fit node:http, Express and Fastify 4 and 5 without casts', () => {
    const webhooks = createWebhookHandler({ secret, on: {} });
    createServer(toNodeListener(webhooks));
    express().post('/webhooks', toExpressMiddleware(webhooks));
    void Fastify().register(toFastifyPlugin(webhooks), { prefix: '/webhooks' });
    void Fastify4().register(toFastifyPlugin(webhooks), { prefix: '/webhooks' });
  });
});
