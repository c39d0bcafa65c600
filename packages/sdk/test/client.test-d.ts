import { LogbookClient, type Paginator, type CreatedWebhook, type ReceiptChange, type Wait } from '@fflkit/sdk';
import type { Book, Page, Receipt, WebhookEndpoint } from '@fflkit/types';
import { describe, expectTypeOf, it } from 'vitest';

const logbook = new LogbookClient({ token: 't', baseUrl: 'https://logbook.example.test/rest/v1' });
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
    expectTypeOf(logbook.receipts.get(1)).resolves.toEqualTypeOf<Receipt>();
    expectTypeOf(logbook.receipts.create(body)).resolves.toEqualTypeOf<Receipt>();
    expectTypeOf(logbook.receipts.list()).resolves.toEqualTypeOf<Page<Receipt>>();
    expectTypeOf(logbook.receipts.iterate()).toEqualTypeOf<Paginator<Receipt>>();
    expectTypeOf(logbook.receipts.delete(1)).resolves.toBeVoid();
    expectTypeOf(logbook.books.list()).resolves.toEqualTypeOf<Book[]>();
    expectTypeOf(logbook.webhooks.list()).resolves.toEqualTypeOf<WebhookEndpoint[]>();
    expectTypeOf(
      logbook.webhooks.create({ url: 'https://x.example', events: ['*'] }),
    ).resolves.toEqualTypeOf<CreatedWebhook>();
    expectTypeOf(logbook.receipts.changesSince(null)).toEqualTypeOf<AsyncGenerator<ReceiptChange, void, undefined>>();
  });

  it('hands onWait a Wait', () => {
    void new LogbookClient({ onWait: (wait) => expectTypeOf(wait).toEqualTypeOf<Wait>() });
    expectTypeOf<Wait['reason']>().toEqualTypeOf<'rate-limit' | 'retry-after' | 'retry'>();
  });

  it('types the raw client by the contract', async () => {
    const { data } = await logbook.raw.GET('/receipts/{id}', { params: { path: { id: 1 } } });
    expectTypeOf(data).toEqualTypeOf<{ data: Receipt } | undefined>();
    // @ts-expect-error: the contract has no such path
    void logbook.raw.GET('/receipts/{id}/audit', { params: { path: { id: 1 } } });
    // @ts-expect-error: no middleware: wrap the client's fetch instead
    void logbook.raw.use;
    expectTypeOf(logbook.raw.request('get', '/books')).resolves.toHaveProperty('response').toEqualTypeOf<Response>();
  });
});

describe('wrong bodies do not compile', () => {
  it('create() needs the required fields with their types', () => {
    const { serial_number: _omitted, ...withoutSerial } = body;
    // @ts-expect-error: serial_number is required
    void logbook.receipts.create(withoutSerial);
    // @ts-expect-error: purchase_amount is a number, not a string
    void logbook.receipts.create({ ...body, purchase_amount: '10.00' });
    // @ts-expect-error: state is a USPS code
    void logbook.receipts.create({ ...body, state: 'Illinois' });
  });

  it('update() takes only known fields, dispose() needs its date and recipient', () => {
    // @ts-expect-error: colour is not a field of a receipt
    void logbook.receipts.update(1, { colour: 'black' });
    // @ts-expect-error: the id is a number
    void logbook.receipts.update('1', { model: 'x' });
    // @ts-expect-error: disposed_to is required
    void logbook.receipts.dispose(1, { disposition_date: '2025-04-02' });
  });

  it('webhooks.create() takes event names only', () => {
    // @ts-expect-error: receipt.moved is not an event
    void logbook.webhooks.create({ url: 'https://x.example', events: ['receipt.moved'] });
  });
});

describe('unknown or wrong params do not compile', () => {
  it('rejects unknown filters and wrong values', () => {
    // @ts-expect-error: there is no colour filter
    void logbook.receipts.list({ colour: 'black' });
    // @ts-expect-error: status is on_hand or disposed
    void logbook.receipts.list({ status: 'sold' });
    // @ts-expect-error: iterate() starts at page 1 by itself
    void logbook.receipts.iterate({ page: 2 });
    // @ts-expect-error: inventory has no status filter
    void logbook.inventory.list({ status: 'on_hand' });
    // @ts-expect-error: search needs q
    void logbook.search.list({ field: 'model' });
    // @ts-expect-error: field is one of the seven searchable fields
    void logbook.search.list({ q: 'x', field: 'colour' });
  });

  it('rejects unknown options', () => {
    // @ts-expect-error: the option is maxRetries
    void new LogbookClient({ retries: 3 });
    // @ts-expect-error: rateLimit is a boolean or { perMinute }
    void new LogbookClient({ rateLimit: 60 });
    // @ts-expect-error: a call takes only a signal
    void logbook.books.list({ timeout: 5 });
    // @ts-expect-error: recover is true or false
    void new LogbookClient({ recover: 'yes' });
    // @ts-expect-error: maxQueueWait is a number of milliseconds
    void new LogbookClient({ maxQueueWait: '5s' });
  });
});
