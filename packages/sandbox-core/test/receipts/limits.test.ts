import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, receiptBody, withAccount } from '../harness/harness';

describe('length limits count characters, as the contract does', () => {
  it('accepts a serial number of 255 emoji and refuses one of 256', async () => {
    const { api } = await withAccount();
    const accepted = await api('POST', '/receipts', { body: receiptBody({ serial_number: '🔫'.repeat(255) }) });
    expect(accepted.status).toBe(201);
    const refused = await api('POST', '/receipts', { body: receiptBody({ serial_number: '🔫'.repeat(256) }) });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({
      serial_number: ['The serial number field must not be greater than 255 characters.'],
    });
  });
});

describe('date-times past the year 9999', () => {
  it('refuses a since that falls after 9999-12-31T23:59:59Z once its offset is applied', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const late = await api('GET', '/receipts', { query: `since=${encodeURIComponent('9999-12-31T23:59:59-00:01')}` });
    expect(late.status).toBe(422);
    expect(Object.keys(errorsOf(late))).toEqual(['since']);
    const last = await api('GET', '/receipts', { query: `since=${encodeURIComponent('9999-12-31T23:59:59Z')}` });
    expect(last.status).toBe(200);
    expect((last.body as { meta: { total: number } }).meta.total).toBe(0);
    expect(dataOf(last)).toEqual([]);
  });
});

describe('fixtures and the request log', () => {
  it('refuses a document URL that is not http(s)', async () => {
    const { api, control } = await withAccount();
    const id = dataOf<{ id: number }>(await api('POST', '/receipts', { body: receiptBody() })).id;
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
      const response = await control('POST', `/receipts/${id}/documents`, {
        body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1, url },
      });
      expect(response.status).toBe(422);
      expect(Object.keys(errorsOf(response))).toEqual(['url']);
    }
  });

  it('redacts credentials in every header that carries them', async () => {
    const { api, control } = await withAccount();
    await api('GET', '/books', {
      headers: { cookie: 'session=abc', 'proxy-authorization': 'Basic eA==', 'x-api-key': 'k-123', 'x-trace': 't-1' },
    });
    const [entry] = dataOf<Array<{ headers: Record<string, string> }>>(await control('GET', '/requests'));
    expect(entry?.headers).toMatchObject({
      authorization: 'Bearer [redacted]',
      cookie: '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-api-key': '[redacted]',
      'x-trace': 't-1',
    });
  });
});
