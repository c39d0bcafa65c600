import { describe, expectTypeOf, it } from 'vitest';
import type {
  DeletedReceipt,
  Disposition,
  DisposedReceipt,
  Receipt,
  WebhookEvent,
  WebhookEventName,
  WebhookEventOf,
} from '@fflkit/types';

describe('WebhookEvent', () => {
  it('narrows to the receipt events and the ping on `event`', () => {
    const handle = (event: WebhookEvent) => {
      switch (event.event) {
        case 'receipt.created':
        case 'receipt.updated':
          expectTypeOf(event.data).toEqualTypeOf<Receipt>();
          return;
        case 'receipt.disposed':
          expectTypeOf(event.data).toEqualTypeOf<DisposedReceipt>();
          expectTypeOf(event.data.disposition).toEqualTypeOf<Disposition>();
          expectTypeOf(event.data.status).toEqualTypeOf<'disposed'>();
          return;
        case 'receipt.deleted':
          expectTypeOf(event.data).toEqualTypeOf<DeletedReceipt>();
          expectTypeOf(event.data.deleted_at).toBeString();
          return;
        case 'ping':
          expectTypeOf(event.data).toEqualTypeOf<{ webhook_id: number; message: string }>();
          return;
        default:
          expectTypeOf(event).toBeNever();
      }
    };
    expectTypeOf(handle).parameter(0).toEqualTypeOf<WebhookEvent>();
  });

  it('has exactly the five event names', () => {
    expectTypeOf<WebhookEvent['event']>().toEqualTypeOf<WebhookEventName>();
    expectTypeOf<WebhookEventName>().toEqualTypeOf<
      'receipt.created' | 'receipt.updated' | 'receipt.disposed' | 'receipt.deleted' | 'ping'
    >();
  });

  it('WebhookEventOf picks one member of the union', () => {
    expectTypeOf<WebhookEventOf<'ping'>['data']['webhook_id']>().toBeNumber();
    expectTypeOf<WebhookEventOf<'receipt.deleted'>['data']>().toEqualTypeOf<DeletedReceipt>();
  });

  it('rejects a wrong shape', () => {
    // @ts-expect-error: a ping carries no receipt
    const ping: WebhookEvent = { event: 'ping', timestamp: '2025-03-14T15:04:05Z', data: { id: 1 } };
    const unknown: WebhookEvent = {
      // @ts-expect-error: not an event name
      event: 'receipt.moved',
      timestamp: '2025-03-14T15:04:05Z',
      data: { webhook_id: 1, message: 'x' },
    };
    const deleted: WebhookEventOf<'receipt.deleted'> = {
      event: 'receipt.deleted',
      timestamp: 't',
      // @ts-expect-error: the deleted receipt needs deleted_at, a plain receipt is not enough
      data: {} as Receipt,
    };
    expectTypeOf([ping, unknown, deleted]).toBeArray();
  });
});
