import { BoundBook, Paginator, type CreatedWebhook, type ReceiptChange, type Wait } from '@boundbook/sdk';
import type { Book, Page, Receipt, WebhookEndpoint } from '@boundbook/types';
import { describe, expectTypeOf, it } from 'vitest';

const bb = new BoundBook({ token: 't', baseUrl: 'https://logbook.example.test/rest/v1' });
const body = {
  book: 'Main',
  serial_number: 'EXA0012345',
  manufacturer: 'Example Arms Co.',
  model: 'EX-9',
  type: 'Pistol',
  caliber: '9mm Luger',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
};

describe('methods resolve with the contract types, unwrapped', () => {
  it('returns receipts, pages, books and endpoints', () => {
    expectTypeOf(bb.receipts.get(1)).resolves.toEqualTypeOf<Receipt>();
    expectTypeOf(bb.receipts.create(body)).resolves.toEqualTypeOf<Receipt>();
    expectTypeOf(bb.receipts.list()).resolves.toEqualTypeOf<Page<Receipt>>();
    expectTypeOf(bb.receipts.iterate()).toEqualTypeOf<Paginator<Receipt>>();
    expectTypeOf(bb.receipts.delete(1)).resolves.toBeVoid();
    expectTypeOf(bb.books.list()).resolves.toEqualTypeOf<Book[]>();
    expectTypeOf(bb.webhooks.list()).resolves.toEqualTypeOf<WebhookEndpoint[]>();
    expectTypeOf(bb.webhooks.create({ url: 'https://x.example', events: ['*'] })).resolves.toEqualTypeOf<CreatedWebhook>();
    expectTypeOf(bb.receipts.changesSince(null)).toEqualTypeOf<AsyncGenerator<ReceiptChange, void, undefined>>();
  });

  it('hands onWait a Wait', () => {
    void new BoundBook({ onWait: (wait) => expectTypeOf(wait).toEqualTypeOf<Wait>() });
    expectTypeOf<Wait['reason']>().toEqualTypeOf<'rate-limit' | 'retry-after' | 'retry'>();
  });

  it('types the raw client by the contract', async () => {
    const { data } = await bb.raw.GET('/receipts/{id}', { params: { path: { id: 1 } } });
    expectTypeOf(data).toEqualTypeOf<{ data: Receipt } | undefined>();
    // @ts-expect-error: the contract has no such path
    void bb.raw.GET('/receipts/{id}/audit', { params: { path: { id: 1 } } });
    // @ts-expect-error: no middleware: wrap the client's fetch instead
    void bb.raw.use;
    expectTypeOf(bb.raw.request('get', '/books')).resolves.toHaveProperty('response').toEqualTypeOf<Response>();
  });
});

describe('wrong bodies do not compile', () => {
  it('create() needs the required fields with their types', () => {
    const { serial_number: _omitted, ...withoutSerial } = body;
    // @ts-expect-error: serial_number is required
    void bb.receipts.create(withoutSerial);
    // @ts-expect-error: purchase_amount is a number, not a string
    void bb.receipts.create({ ...body, purchase_amount: '10.00' });
    // @ts-expect-error: state is a USPS code
    void bb.receipts.create({ ...body, state: 'Illinois' });
  });

  it('update() takes only known fields, dispose() needs its date and recipient', () => {
    // @ts-expect-error: colour is not a field of a receipt
    void bb.receipts.update(1, { colour: 'black' });
    // @ts-expect-error: the id is a number
    void bb.receipts.update('1', { model: 'x' });
    // @ts-expect-error: disposed_to is required
    void bb.receipts.dispose(1, { disposition_date: '2025-04-02' });
  });

  it('webhooks.create() takes event names only', () => {
    // @ts-expect-error: receipt.moved is not an event
    void bb.webhooks.create({ url: 'https://x.example', events: ['receipt.moved'] });
  });
});

describe('unknown or wrong params do not compile', () => {
  it('rejects unknown filters and wrong values', () => {
    // @ts-expect-error: there is no colour filter
    void bb.receipts.list({ colour: 'black' });
    // @ts-expect-error: status is on_hand or disposed
    void bb.receipts.list({ status: 'sold' });
    // @ts-expect-error: iterate() starts at page 1 by itself
    void bb.receipts.iterate({ page: 2 });
    // @ts-expect-error: inventory has no status filter
    void bb.inventory.list({ status: 'on_hand' });
    // @ts-expect-error: search needs q
    void bb.search.list({ field: 'model' });
    // @ts-expect-error: field is one of the seven searchable fields
    void bb.search.list({ q: 'x', field: 'colour' });
  });

  it('rejects unknown options', () => {
    // @ts-expect-error: the option is maxRetries
    void new BoundBook({ retries: 3 });
    // @ts-expect-error: rateLimit is a boolean or { perMinute }
    void new BoundBook({ rateLimit: 60 });
    // @ts-expect-error: a call takes only a signal
    void bb.books.list({ timeout: 5 });
    // @ts-expect-error: recover is true or false
    void new BoundBook({ recover: 'yes' });
    // @ts-expect-error: maxQueueWait is a number of milliseconds
    void new BoundBook({ maxQueueWait: '5s' });
  });
});
