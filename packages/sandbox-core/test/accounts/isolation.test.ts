import { describe, expect, it } from 'vitest';
import { dispositionBody, receiptBody, withAccount } from '../harness/harness';

describe('isolation between accounts', () => {
  it('answers 404 for another account’s ids and never shows its data', async () => {
    const first = await withAccount();
    await first.api('POST', '/receipts', { body: receiptBody({ serial_number: 'SECRET-1' }) });
    await first.api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    const created = await first.call('POST', '/_sandbox/accounts');
    const token = (created.body as { token: string }).token;
    const other = (method: string, path: string, body?: unknown) =>
      first.call(method, path, { token, ...(body === undefined ? {} : { body }) });
    for (const [method, path, body] of [
      ['GET', '/rest/v1/receipts/1'],
      ['PUT', '/rest/v1/receipts/1', { model: 'x' }],
      ['POST', '/rest/v1/receipts/1/dispose', dispositionBody()],
      ['DELETE', '/rest/v1/receipts/1'],
      ['DELETE', '/rest/v1/webhooks/1'],
      ['GET', '/_sandbox/receipts/1/audit'],
      ['POST', '/_sandbox/receipts/1/documents', { name: 'a', mime_type: 'a/b', size: 1 }],
      ['DELETE', '/_sandbox/tokens/1'],
    ] as const) {
      expect((await other(method, path, body)).status).toBe(404);
    }
    for (const [path, query] of [
      ['/rest/v1/receipts', ''],
      ['/rest/v1/search', 'q=secret'],
      ['/rest/v1/inventory', ''],
    ]) {
      const page = await first.call('GET', path ?? '', { token, query: query ?? '' });
      expect((page.body as { meta: { total: number } }).meta.total).toBe(0);
    }
    expect((await other('GET', '/rest/v1/webhooks')).body).toEqual({ data: [] });
    expect((await first.api('GET', '/receipts/1')).status).toBe(200);
  });

  it('keeps a book name of one account from another', async () => {
    const first = await withAccount({ books: ['Consignment'] });
    const second = await withAccount();
    const response = await second.api('POST', '/receipts', { body: receiptBody({ book: 'Consignment' }) });
    expect(response.status).toBe(422);
    expect((await first.api('POST', '/receipts', { body: receiptBody({ book: 'Consignment' }) })).status).toBe(201);
  });
});
