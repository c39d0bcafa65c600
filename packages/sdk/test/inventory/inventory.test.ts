import { describe, expect, it } from 'vitest';
import { page, receipt } from '../support/fixtures';
import { json } from '../support/stub-fetch';
import { testClient } from '../support/test-client';

describe('bb.inventory', () => {
  it('list(params) resolves with one page of on-hand receipts', async () => {
    const body = page([receipt()], 1, 50);
    const { bb, calls } = testClient([json(200, body)]);
    await expect(bb.inventory.list({ book: 'Main', per_page: 50 })).resolves.toEqual(body);
    expect([calls[0]?.url.pathname, calls[0]?.url.search]).toEqual(['/rest/v1/inventory', '?book=Main&per_page=50']);
  });

  it('list() sends no query without params', async () => {
    const { bb, calls } = testClient([json(200, page([], 1, 25))]);
    await bb.inventory.list();
    expect(calls[0]?.url.search).toBe('');
  });

  it('iterate(params) yields every on-hand receipt across pages', async () => {
    const all = Array.from({ length: 3 }, (_, i) => receipt({ id: i + 1 }));
    const { bb } = testClient([(request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 1))]);
    const ids: number[] = [];
    for await (const r of bb.inventory.iterate({ per_page: 1 })) ids.push(r.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it('list({ per_page: 500 }) throws a RangeError before any request', async () => {
    const { bb, calls } = testClient([json(200, page([], 1, 25))]);
    await expect(bb.inventory.list({ per_page: 500 })).rejects.toThrow(RangeError);
    expect(calls).toHaveLength(0);
  });
});
