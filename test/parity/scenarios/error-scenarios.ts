import type { ReceiptCreate } from '@fflkit/sdk';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import type { Scenario } from '../scenario';
import { rawOutcome } from './raw-outcome';

/** A body one byte over the 1 MB limit. */
const TOO_LARGE_MODEL = 'x'.repeat(1_048_577);

/** A receipt body without `ffl_license`, so that the full address is required instead. */
function withoutLicense(body: ReceiptCreate): ReceiptCreate {
  return Object.fromEntries(Object.entries(body).filter(([field]) => field !== 'ffl_license')) as ReceiptCreate;
}

/** Every error an integrator meets, compared whole: status, message and the `errors` map. */
export const errorScenarios: readonly Scenario[] = [
  {
    name: 'refuses invalid bodies and queries with 422 and the same errors',
    statuses: [201, 422],
    run: async (context) => {
      const logbook = context.client(await context.account());
      await context.attempt('receipts.create({})', () => logbook.receipts.create({} as ReceiptCreate));
      await context.attempt('receipts.create() with wrong values', () =>
        logbook.receipts.create(
          receiptBody({
            serial_number: 'PAR-E1',
            book: 'Nowhere',
            receipt_date: '2025-02-30',
            purchase_amount: 1.234,
            ffl_license: 'not a license',
            state: 'XX' as never,
            zip: '1234',
          }),
        ),
      );
      await context.attempt('receipts.create() in the future', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-E2', receipt_date: '2999-01-01' })),
      );
      await context.attempt('receipts.create() without license or address', () =>
        logbook.receipts.create(withoutLicense(receiptBody({ serial_number: 'PAR-E3', address: '1 Main St' }))),
      );
      const receipt = await context.call('receipts.create()', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-E4' })),
      );
      await context.attempt('receipts.update() moving the book', () =>
        logbook.receipts.update(receipt.id, { book: 'Other' }),
      );
      await context.attempt('receipts.dispose() without recipient', () =>
        logbook.receipts.dispose(receipt.id, { disposition_date: '2025-04-02' } as never),
      );
      await context.attempt('receipts.dispose() with a bad address', () =>
        logbook.receipts.dispose(receipt.id, dispositionWithAddressBody({ state: 'ZZ' as never, zip: 'abcde' })),
      );
      await context.attempt('raw GET /receipts?per_page=201', () =>
        logbook.raw.GET('/receipts', { params: { query: { per_page: 201 } } }).then(rawOutcome),
      );
      await context.attempt('raw GET /receipts?status=lost&since=yesterday', () =>
        logbook.raw
          .GET('/receipts', { params: { query: { status: 'lost' as never, since: 'yesterday' } } })
          .then(rawOutcome),
      );
      await context.attempt('search.list() with an empty term', () => logbook.search.list({ q: '' }));
      await context.attempt('search.list() in an unknown field', () =>
        logbook.search.list({ q: 'x', field: 'colour' as never }),
      );
      await context.attempt('webhooks.create() with a bad url and no events', () =>
        logbook.webhooks.create({ url: 'ftp://example.com/hook', events: [] }),
      );
      await context.attempt('webhooks.create() with an unknown event', () =>
        logbook.webhooks.create({ url: 'https://hooks.example.com/x', events: ['receipt.lost' as never] }),
      );
    },
  },
  {
    name: 'answers malformed JSON with 422 and bodies over 1 MB with 413',
    statuses: [413, 422],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.send('POST', '/receipts', { token, rawBody: '{"book": "Main",' });
      await context.send('POST', '/receipts', { token, rawBody: '[1, 2]' });
      await context.attempt('receipts.create() over 1 MB', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-E5', model: TOO_LARGE_MODEL })),
      );
    },
  },
  {
    name: 'answers 401 to missing, unknown and revoked tokens, 403 to missing permissions',
    statuses: [200, 201, 204, 401, 403],
    run: async (context) => {
      const owner = await context.account();
      await context.send('GET', '/books');
      await context.attempt('books.list() with an unknown token', () => context.client('sbx_unknown').books.list());
      const reader = await context.control<{ data: { id: number }; token: string }>(owner, 'POST', '/_sandbox/tokens', {
        permissions: ['read'],
        name: 'Reader',
      });
      const readOnly = context.client(reader.token);
      await context.call('books.list() with read', () => readOnly.books.list());
      await context.attempt('receipts.create() with read only', () =>
        readOnly.receipts.create(receiptBody({ serial_number: 'PAR-E6' })),
      );
      await context.attempt('webhooks.create() with read only', () =>
        readOnly.webhooks.create({ url: 'https://hooks.example.com/x', events: ['*'] }),
      );
      const writer = await context.control<{ token: string }>(owner, 'POST', '/_sandbox/tokens', {
        permissions: ['read', 'write'],
      });
      const receipt = await context.call('receipts.create() with write', () =>
        context.client(writer.token).receipts.create(receiptBody({ serial_number: 'PAR-E7' })),
      );
      await context.attempt('receipts.delete() without delete', () =>
        context.client(writer.token).receipts.delete(receipt.id),
      );
      const none = await context.control<{ token: string }>(owner, 'POST', '/_sandbox/tokens', { permissions: [] });
      await context.attempt('inventory.list() with no permission', () => context.client(none.token).inventory.list());
      await context.control(owner, 'DELETE', `/_sandbox/tokens/${reader.data.id}`);
      await context.attempt('books.list() with the revoked token', () => readOnly.books.list());
      const collector = context.client(await context.account({ account_type: 'collector' }));
      await context.attempt('books.list() of a collector', () => collector.books.list());
      await context.attempt('receipts.get() of a collector', () => collector.receipts.get(1));
    },
  },
  {
    name: "answers 404 for unknown records and paths, and for another account's receipt",
    statuses: [201, 404],
    run: async (context) => {
      const logbook = context.client(await context.account());
      const other = context.client(await context.account());
      const theirs = await context.call('receipts.create() in another account', () =>
        other.receipts.create(receiptBody({ serial_number: 'PAR-E8' })),
      );
      await context.attempt("receipts.get() of another account's receipt", () => logbook.receipts.get(theirs.id));
      await context.attempt('receipts.update() of an unknown id', () =>
        logbook.receipts.update(999_999, { model: 'X' }),
      );
      await context.attempt('receipts.dispose() of an unknown id', () =>
        logbook.receipts.dispose(999_999, dispositionWithAddressBody()),
      );
      await context.attempt('receipts.delete() of an unknown id', () => logbook.receipts.delete(999_999));
      await context.attempt('webhooks.delete() of an unknown id', () => logbook.webhooks.delete(999_999));
      await context.attempt('raw GET /receipts/abc', () =>
        logbook.raw.GET('/receipts/{id}', { params: { path: { id: 'abc' as never } } }).then(rawOutcome),
      );
      await context.attempt('raw GET /nothing-here', () => logbook.raw.GET('/nothing-here' as never).then(rawOutcome));
    },
  },
  {
    name: "answers 429 past the rate limit, with the same headers, even once the account's clock has moved a minute on",
    rateLimit: 3,
    statuses: [200, 429],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      for (let call = 1; call <= 3; call += 1) await context.call(`books.list() #${call}`, () => logbook.books.list());
      await context.attempt('books.list() over the limit', () => logbook.books.list());
      await context.attempt('receipts.create() over the limit', () =>
        logbook.receipts.create(receiptBody({ serial_number: 'PAR-E9' })),
      );
      const unaffected = context.client(await context.account());
      await context.call('books.list() of another account', () => unaffected.books.list());
      await context.control(token, 'GET', '/_sandbox/clock');
      // The limit counts real time: a test cannot leave behind the limit its production code meets.
      await context.control(token, 'POST', '/_sandbox/clock/advance', { seconds: 60 });
      await context.attempt('books.list() after the clock advanced 60 s', () => logbook.books.list());
    },
  },
  {
    name: 'refuses a query parameter written as a list in brackets as it refuses a repeated one, on both APIs',
    statuses: [201, 422],
    run: async (context) => {
      const token = await context.account();
      const logbook = context.client(token);
      await context.call('receipts.create()', () => logbook.receipts.create(receiptBody({ serial_number: 'PAR-Q1' })));
      await context.send('GET', '/receipts?serial_number[]=PAR-Q1', { token });
      await context.send('GET', '/receipts?serial_number%5B0%5D=PAR-Q1', { token });
      await context.send('GET', '/receipts?serial_number=PAR-Q1&serial_number=PAR-Q2', { token });
      await context.send('GET', '/search?q[]=PAR&field=serial_number', { token });
      await context.send('GET', '/inventory?book[x]=Main', { token });
      await context.control(token, 'GET', '/_sandbox/receipts?q[]=a');
      await context.control(token, 'GET', '/_sandbox/deliveries?state[0]=pending');
      await context.control(token, 'GET', '/_sandbox/requests?status[]=200');
    },
  },
];
