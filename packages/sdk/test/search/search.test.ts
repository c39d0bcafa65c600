import { ValidationError } from '@boundbook/sdk';
import { describe, expect, it } from 'vitest';
import { page, receipt } from '../support/fixtures';
import { json } from '../support/stub-fetch';
import { testClient } from '../support/test-client';

describe('bb.search', () => {
  it('list({ q, field }) resolves with one page of matches', async () => {
    const body = page([receipt()], 1, 25);
    const { bb, calls } = testClient([json(200, body)]);
    await expect(bb.search.list({ q: 'EXA 00', field: 'serial_number' })).resolves.toEqual(body);
    expect([calls[0]?.url.pathname, calls[0]?.url.search]).toEqual(['/rest/v1/search', '?q=EXA%2000&field=serial_number']);
  });

  it('iterate({ q }) yields every match across pages', async () => {
    const all = Array.from({ length: 4 }, (_, i) => receipt({ id: i + 1 }));
    const { bb, calls } = testClient([(request) => json(200, page(all, Number(new URL(request.url).searchParams.get('page')), 3))]);
    const ids: number[] = [];
    for await (const r of bb.search.iterate({ q: 'glock', per_page: 3 })) ids.push(r.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(calls).toHaveLength(2);
  });

  it('list({ q: "" }) throws the ValidationError of the 422', async () => {
    const { bb } = testClient([json(422, { message: 'The q field is required.', errors: { q: ['The q field is required.'] } })]);
    await expect(bb.search.list({ q: '' })).rejects.toBeInstanceOf(ValidationError);
  });
});
