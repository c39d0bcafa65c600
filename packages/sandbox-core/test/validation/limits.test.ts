import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, receiptBody, withAccount } from '../support/harness';

describe('length limits count characters, as the contract does', () => {
  it('accepts a serial number of 255 emoji and refuses one of 256', async () => {
    const { api } = await withAccount();
    const accepted = await api('POST', '/receipts', { body: receiptBody({ serial_number: '🔫'.repeat(255) }) });
    expect(accepted.status).toBe(201);
    const refused = await api('POST', '/receipts', { body: receiptBody({ serial_number: '🔫'.repeat(256) }) });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({ serial_number: ['The serial number field must not be greater than 255 characters.'] });
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
