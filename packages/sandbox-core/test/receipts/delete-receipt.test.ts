import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, receiptBody, withAccount } from '../harness/harness';

describe('DELETE /rest/v1/receipts/{id}', () => {
  it('soft-deletes: 204, then 404 for every call, out of lists, search, inventory and counts', async () => {
    const { api, control } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'KEEP' }) });
    const deleted = await api('DELETE', '/receipts/1');
    expect(deleted).toEqual({ status: 204, headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '57' } });
    for (const [method, path] of [
      ['GET', '/receipts/1'],
      ['PUT', '/receipts/1'],
      ['DELETE', '/receipts/1'],
      ['POST', '/receipts/1/dispose'],
    ] as const) {
      expect((await api(method, path, { body: dispositionBody() })).status).toBe(404);
    }
    for (const [path, query] of [
      ['/receipts', ''],
      ['/inventory', ''],
      ['/search', 'q=EXA00'],
    ]) {
      const page = (await api('GET', path ?? '', { query: query ?? '' })).body as {
        data: unknown[];
        meta: { total: number };
      };
      expect(page.meta.total).toBe(path === '/search' ? 0 : 1);
    }
    expect(dataOf(await api('GET', '/books'))).toMatchObject([
      { record_count: 1, on_hand_count: 1, disposed_count: 0 },
    ]);
    expect(
      (await control('POST', '/receipts/1/documents', { body: { name: 'a', mime_type: 'a/b', size: 1 } })).status,
    ).toBe(404);
  });

  it('keeps the audit trail, with an entry "deleted", and never reuses the record number', async () => {
    const { api, control, clock } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    clock.ms += 1000;
    await api('DELETE', '/receipts/1');
    const trail = dataOf<{ action: string; changes: unknown }[]>(await control('GET', '/receipts/1/audit'));
    expect(trail.map((entry) => [entry.action, entry.changes])).toEqual([
      ['created', expect.any(Object)],
      ['deleted', { deleted_at: { from: null, to: '2025-03-14T15:04:06Z' } }],
    ]);
    const next = dataOf<{ record: number }>(await api('POST', '/receipts', { body: receiptBody() }));
    expect(next.record).toBe(2);
  });

  it('deletes a disposed receipt from the disposed count', async () => {
    const { api } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/1');
    expect(dataOf(await api('GET', '/books'))).toMatchObject([
      { record_count: 0, on_hand_count: 0, disposed_count: 0 },
    ]);
    expect(
      ((await api('GET', '/receipts', { query: 'status=disposed' })).body as { meta: { total: number } }).meta.total,
    ).toBe(0);
  });
});
