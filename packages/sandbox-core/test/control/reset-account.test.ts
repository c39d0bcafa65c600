import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, receiptBody, withAccount } from '../support/harness';

describe('POST /_sandbox/reset', () => {
  it('empties receipts, books and webhooks, makes a new Main, and keeps tokens, clock and log', async () => {
    const { api, control, core, token } = await withAccount({ books: ['Consignment'] });
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    await control('POST', '/clock/advance', { body: { seconds: 60 } });
    expect(await control('POST', '/reset')).toEqual({ status: 204, headers: {} });
    expect(dataOf(await api('GET', '/books'))).toEqual([
      { id: 3, name: 'Main', record_count: 0, on_hand_count: 0, disposed_count: 0, created_at: '2025-03-14T15:05:05Z' },
    ]);
    expect(dataOf(await api('GET', '/webhooks'))).toEqual([]);
    expect((await control('GET', '/receipts/1/audit')).status).toBe(404);
    expect(core.snapshot().deliveries).toEqual([]);
    expect(dataOf(await control('GET', '/clock'))).toMatchObject({ offset_seconds: 60 });
    expect(dataOf<unknown[]>(await control('GET', '/requests')).length).toBeGreaterThan(0);
    const next = dataOf<{ id: number; record: number }>(await api('POST', '/receipts', { body: receiptBody() }));
    expect([next.id, next.record]).toEqual([2, 1]);
    expect((await api('POST', '/receipts/2/dispose', { body: dispositionBody() })).status).toBe(200);
    expect(token).toMatch(/^sbx_/);
  });
});
