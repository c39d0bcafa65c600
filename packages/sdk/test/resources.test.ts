import { AuthenticationError, NotFoundError, Paginator, PermissionDeniedError, ValidationError } from '@fflkit/sdk';
import { receiptBody, receiptResource } from '@fflkit/test-fixtures';
import type { Book, WebhookEndpoint } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { page } from './support/page';
import { at, ReceiptStore } from './support/receipt-store';
import { empty, json } from './support/stub-fetch';
import { BASE_URL, testClient } from './support/test-client';

const one = receiptResource();

describe('logbook.receipts', () => {
  it('list(params) sends the filters and resolves with one page: { data, links, meta }', async () => {
    const body = page([one], 2, 25);
    const { logbook, calls } = testClient([json(200, body)]);
    const result = await logbook.receipts.list({
      status: 'on_hand',
      book: 'Main',
      since: '2025-03-01T00:00:00+01:00',
      page: 2,
    });
    expect(result).toEqual(body);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.url.pathname).toBe('/rest/v1/receipts');
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      status: 'on_hand',
      book: 'Main',
      since: '2025-03-01T00:00:00+01:00',
      page: '2',
    });
    expect(calls[0]?.url.search).toContain('since=2025-03-01T00%3A00%3A00%2B01%3A00');
  });

  it.each([0, 201, 1.5, Number.NaN])(
    'list({ per_page: %d }) throws a RangeError before any request',
    async (perPage) => {
      const { logbook, calls } = testClient([json(200, page([], 1, 25))]);
      await expect(logbook.receipts.list({ per_page: perPage })).rejects.toThrow(RangeError);
      await expect(logbook.receipts.list({ per_page: perPage })).rejects.toThrow(
        'per_page must be a whole number from 1 to 200',
      );
      expect(() => logbook.receipts.iterate({ per_page: perPage })).toThrow(RangeError);
      expect(calls).toHaveLength(0);
    },
  );

  it('list(params) leaves a parameter given as undefined out of the query', async () => {
    const { logbook, calls } = testClient([json(200, page([], 1, 25))]);
    await logbook.receipts.list(
      { status: undefined, book: 'Main', page: undefined, per_page: undefined },
      { signal: undefined },
    );
    expect(calls[0]?.url.search).toBe('?book=Main');
  });

  it('iterate({ per_page: undefined }) reads the pages at the default size', async () => {
    const { logbook, calls } = testClient([json(200, page([receiptResource()], 1, 25))]);
    const ids: number[] = [];
    for await (const r of logbook.receipts.iterate({ per_page: undefined })) ids.push(r.id);
    expect(ids).toEqual([1042]);
    expect(calls.map((call) => call.url.search)).toEqual(['?page=1']);
  });

  it('list({ page: 0 }) throws a RangeError before any request', async () => {
    const { logbook, calls } = testClient([json(200, page([], 1, 25))]);
    await expect(logbook.receipts.list({ page: 0 })).rejects.toThrow('page must be a whole number from 1');
    expect(calls).toHaveLength(0);
  });

  it('iterate(params) yields every receipt across pages, asking for each page in turn', async () => {
    const all = Array.from({ length: 5 }, (_, i) => receiptResource({ id: i + 1 }));
    const { logbook, calls } = testClient([
      (request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 2)),
    ]);
    const paginator = logbook.receipts.iterate({ status: 'on_hand', per_page: 2 });
    expect(paginator).toBeInstanceOf(Paginator);
    const ids: number[] = [];
    for await (const r of paginator) ids.push(r.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(calls.map((call) => call.url.search)).toEqual([
      '?status=on_hand&per_page=2&page=1',
      '?status=on_hand&per_page=2&page=2',
      '?status=on_hand&per_page=2&page=3',
    ]);
  });

  it('iterate().pages() yields the pages, and leaving the loop sends no more requests', async () => {
    const all = Array.from({ length: 6 }, (_, i) => receiptResource({ id: i + 1 }));
    const { logbook, calls } = testClient([
      (request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 2)),
    ]);
    for await (const p of logbook.receipts.iterate({ per_page: 2 }).pages()) {
      expect(p.meta.current_page).toBe(1);
      break;
    }
    expect(calls).toHaveLength(1);
  });

  it('get(id) resolves with the receipt, unwrapped', async () => {
    const { logbook, calls } = testClient([json(200, { data: one })]);
    await expect(logbook.receipts.get(1042)).resolves.toEqual(one);
    expect(calls[0]?.url.href).toBe(`${BASE_URL}/receipts/1042`);
  });

  it('get(id) throws NotFoundError for a 404', async () => {
    const { logbook } = testClient([json(404, { message: 'Record not found.' })]);
    await expect(logbook.receipts.get(9)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('create(body) posts the body as JSON and resolves with the created receipt', async () => {
    const { logbook, calls } = testClient([json(201, { data: one })]);
    await expect(logbook.receipts.create(receiptBody())).resolves.toEqual(one);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/rest/v1/receipts');
    expect(calls[0]?.request.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual(receiptBody());
  });

  it('create(body) throws ValidationError with the field errors for a 422', async () => {
    const errors = { serial_number: ['The serial number field is required.'] };
    const { logbook } = testClient([json(422, { message: 'The serial number field is required.', errors })]);
    const error = await logbook.receipts.create(receiptBody({ serial_number: '' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual(errors);
  });

  it('update(id, body) puts the changes and resolves with the receipt', async () => {
    const { logbook, calls } = testClient([json(200, { data: one })]);
    await expect(logbook.receipts.update(1042, { model: 'EX-9 OR', purchase_amount: 399 })).resolves.toEqual(one);
    expect([calls[0]?.method, calls[0]?.url.pathname, calls[0]?.body]).toEqual([
      'PUT',
      '/rest/v1/receipts/1042',
      '{"model":"EX-9 OR","purchase_amount":399}',
    ]);
  });

  it('dispose(id, body) posts the disposition and resolves with the disposed receipt', async () => {
    const disposed = receiptResource({ status: 'disposed' });
    const { logbook, calls } = testClient([json(200, { data: disposed })]);
    const body = { disposition_date: '2025-04-02', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123' };
    await expect(logbook.receipts.dispose(1042, body)).resolves.toEqual(disposed);
    expect([calls[0]?.method, calls[0]?.url.pathname, JSON.parse(calls[0]?.body ?? '')]).toEqual([
      'POST',
      '/rest/v1/receipts/1042/dispose',
      body,
    ]);
  });

  it('delete(id) sends DELETE and resolves with nothing on 204', async () => {
    const { logbook, calls } = testClient([empty(204)]);
    await expect(logbook.receipts.delete(1043)).resolves.toBeUndefined();
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['DELETE', '/rest/v1/receipts/1043']);
  });

  it('delete(id) throws NotFoundError for a 404', async () => {
    const { logbook } = testClient([json(404, { message: 'Record not found.' })]);
    await expect(logbook.receipts.delete(1043)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('changesSince(checkpoint) pages through GET /receipts?since= from one second before the checkpoint', async () => {
    const store = new ReceiptStore();
    store.put(1, at(10));
    store.put(2, at(12));
    const { logbook, calls } = testClient([
      async (request) => {
        const params = Object.fromEntries(new URL(request.url).searchParams);
        return json(
          200,
          await store.list({ ...params, page: Number(params['page']), per_page: Number(params['per_page']) }),
        );
      },
    ]);
    const ids: number[] = [];
    for await (const { receipt: r } of logbook.receipts.changesSince({ after: at(11), seen: [] })) ids.push(r.id);
    expect(ids).toEqual([2]);
    expect(calls[0]?.url.searchParams.get('since')).toBe(at(10));
    expect(calls[0]?.url.searchParams.get('per_page')).toBe('200');
  });
});

const main: Book = {
  id: 1,
  name: 'Main',
  record_count: 3,
  on_hand_count: 2,
  disposed_count: 1,
  created_at: '2025-03-01T10:00:00Z',
};

describe('logbook.books', () => {
  it('list() resolves with the books, unwrapped', async () => {
    const { logbook, calls } = testClient([json(200, { data: [main] })]);
    await expect(logbook.books.list()).resolves.toEqual([main]);
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['GET', '/rest/v1/books']);
  });

  it('list() throws AuthenticationError for a 401', async () => {
    const { logbook } = testClient([json(401, { message: 'Unauthenticated.' }, { 'WWW-Authenticate': 'Bearer' })]);
    await expect(logbook.books.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('logbook.inventory', () => {
  it('list(params) resolves with one page of on-hand receipts', async () => {
    const body = page([receiptResource()], 1, 50);
    const { logbook, calls } = testClient([json(200, body)]);
    await expect(logbook.inventory.list({ book: 'Main', per_page: 50 })).resolves.toEqual(body);
    expect([calls[0]?.url.pathname, calls[0]?.url.search]).toEqual(['/rest/v1/inventory', '?book=Main&per_page=50']);
  });

  it('list() sends no query without params', async () => {
    const { logbook, calls } = testClient([json(200, page([], 1, 25))]);
    await logbook.inventory.list();
    expect(calls[0]?.url.search).toBe('');
  });

  it('iterate(params) yields every on-hand receipt across pages', async () => {
    const all = Array.from({ length: 3 }, (_, i) => receiptResource({ id: i + 1 }));
    const { logbook } = testClient([
      (request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 1)),
    ]);
    const ids: number[] = [];
    for await (const r of logbook.inventory.iterate({ per_page: 1 })) ids.push(r.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it('list({ per_page: 500 }) throws a RangeError before any request', async () => {
    const { logbook, calls } = testClient([json(200, page([], 1, 25))]);
    await expect(logbook.inventory.list({ per_page: 500 })).rejects.toThrow(RangeError);
    expect(calls).toHaveLength(0);
  });
});

describe('logbook.search', () => {
  it('list({ q, field }) resolves with one page of matches', async () => {
    const body = page([receiptResource()], 1, 25);
    const { logbook, calls } = testClient([json(200, body)]);
    await expect(logbook.search.list({ q: 'EXA 00', field: 'serial_number' })).resolves.toEqual(body);
    expect([calls[0]?.url.pathname, calls[0]?.url.search]).toEqual([
      '/rest/v1/search',
      '?q=EXA%2000&field=serial_number',
    ]);
  });

  it('iterate({ q }) yields every match across pages', async () => {
    const all = Array.from({ length: 4 }, (_, i) => receiptResource({ id: i + 1 }));
    const { logbook, calls } = testClient([
      (request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 3)),
    ]);
    const ids: number[] = [];
    for await (const r of logbook.search.iterate({ q: 'glock', per_page: 3 })) ids.push(r.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(calls).toHaveLength(2);
  });

  it('list({ q: "" }) throws the ValidationError of the 422', async () => {
    const { logbook } = testClient([
      json(422, { message: 'The q field is required.', errors: { q: ['The q field is required.'] } }),
    ]);
    await expect(logbook.search.list({ q: '' })).rejects.toBeInstanceOf(ValidationError);
  });
});

const endpoint: WebhookEndpoint = {
  id: 7,
  url: 'https://hooks.example.com/logbook',
  events: ['*'],
  enabled: true,
  created_at: '2025-03-01T10:00:00Z',
  updated_at: '2025-03-01T10:00:00Z',
};

describe('logbook.webhooks', () => {
  it('list() resolves with the endpoints, unwrapped', async () => {
    const { logbook, calls } = testClient([json(200, { data: [endpoint] })]);
    await expect(logbook.webhooks.list()).resolves.toEqual([endpoint]);
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['GET', '/rest/v1/webhooks']);
  });

  it('create({ url, events }) lists the endpoints, then resolves with { endpoint, secret }', async () => {
    const { logbook, calls } = testClient([
      json(200, { data: [] }),
      json(201, { data: endpoint, secret: 'whsec_3f9a' }),
    ]);
    await expect(logbook.webhooks.create({ url: endpoint.url, events: ['*'] })).resolves.toEqual({
      endpoint,
      secret: 'whsec_3f9a',
    });
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      'GET /rest/v1/webhooks',
      'POST /rest/v1/webhooks',
    ]);
    expect(JSON.parse(calls[1]?.body ?? '')).toEqual({ url: endpoint.url, events: ['*'] });
  });

  it('delete(id) sends DELETE /webhooks/{id}', async () => {
    const { logbook, calls } = testClient([empty(204)]);
    await expect(logbook.webhooks.delete(7)).resolves.toBeUndefined();
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual(['DELETE', '/rest/v1/webhooks/7']);
  });

  it('delete(id) throws PermissionDeniedError for a 403', async () => {
    const { logbook } = testClient([json(403, { message: 'This action requires the delete permission.' })]);
    await expect(logbook.webhooks.delete(7)).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
