import { describe, expect, it } from 'vitest';
import { errorsOf, receiptBody, withAccount } from '../support/harness';

describe('the order of checks', () => {
  it('answers 401 before 429, 403, 404 and 422', async () => {
    const { call } = await withAccount({ account_type: 'collector' });
    const response = await call('PUT', '/rest/v1/receipts/999', { token: 'sbx_unknown', rawBody: '{' });
    expect(response.status).toBe(401);
  });

  it('answers 429 before 403', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 1 });
    const none = (await control('POST', '/tokens', { body: { permissions: [] } })).body as { token: string };
    expect((await api('GET', '/books', { token: none.token })).status).toBe(403);
    expect((await api('GET', '/books', { token: none.token })).status).toBe(429);
  });

  it('answers 403 before 404', async () => {
    const { api, control } = await withAccount();
    const read = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string };
    expect((await api('DELETE', '/receipts/999', { token: read.token })).status).toBe(403);
  });

  it('answers 404 before 422', async () => {
    const { api } = await withAccount();
    expect((await api('PUT', '/receipts/999', { rawBody: '{' })).status).toBe(404);
    expect((await api('POST', '/receipts/999/dispose', { body: {} })).status).toBe(404);
  });

  it('answers 422 once the record exists', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const response = await api('PUT', '/receipts/1', { rawBody: '{' });
    expect(response.status).toBe(422);
    expect(errorsOf(response)).toEqual({ body: ['The request body is not valid JSON.'] });
  });
});

describe('errors', () => {
  it('answer 404 for a record in the contract shape with the rate-limit headers', async () => {
    const { api } = await withAccount();
    expect(await api('GET', '/receipts/12')).toEqual({
      status: 404,
      headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' },
      body: { message: 'Record not found.' },
    });
  });
});
