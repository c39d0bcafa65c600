import { describe, expect, it } from 'vitest';
import { dataOf, withAccount } from '../harness/harness';

describe('GET /_sandbox/requests', () => {
  it('lists the service API requests of the account, newest first, with authorization redacted', async () => {
    const { api, control, call, clock } = await withAccount();
    await api('GET', '/receipts', { query: 'status=on_hand', headers: { 'User-Agent': 'inventory-sync/2.3' } });
    clock.ms += 1000;
    await api('GET', '/nothing');
    await control('GET', '/clock');
    await call('GET', '/rest/v1/books', { token: 'sbx_unknown' });
    const entries = dataOf<Record<string, unknown>[]>(await control('GET', '/requests'));
    expect(entries).toEqual([
      {
        id: 2,
        method: 'GET',
        path: '/rest/v1/nothing',
        query: '',
        status: 404,
        duration_ms: 0,
        at: '2025-03-14T15:04:06Z',
        headers: { host: 'sandbox.test', authorization: 'Bearer [redacted]' },
      },
      {
        id: 1,
        method: 'GET',
        path: '/rest/v1/receipts',
        query: 'status=on_hand',
        status: 200,
        duration_ms: 0,
        at: '2025-03-14T15:04:05Z',
        headers: { host: 'sandbox.test', 'user-agent': 'inventory-sync/2.3', authorization: 'Bearer [redacted]' },
      },
    ]);
  });

  it('keeps the last 100, includes those of revoked tokens, and never moves the version', async () => {
    const { api, control, core } = await withAccount({}, { rateLimit: 0 });
    const version = core.version;
    for (let count = 0; count < 105; count += 1) await api('GET', '/books');
    expect(core.version).toBe(version);
    const other = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { data: { id: number }; token: string };
    await control('DELETE', `/tokens/${other.data.id}`);
    await api('GET', '/books', { token: other.token });
    const entries = dataOf<{ id: number; status: number }[]>(await control('GET', '/requests'));
    expect(entries).toHaveLength(100);
    expect(entries[0]).toMatchObject({ id: 106, status: 401 });
    expect(entries[99]).toMatchObject({ id: 7 });
  });
});

describe('the request log redacts credentials in the query string', () => {
  it('hides the value of a token parameter and any sbx_ token, and keeps the rest as sent', async () => {
    const { api, control, token } = await withAccount();
    await api('GET', '/receipts', { query: `status=on_hand&access_token=${token}&page=1` });
    await api('GET', '/receipts', { query: `q=${token}&api_key=k-123` });
    const [second, first] = dataOf<Array<{ query: string }>>(await control('GET', '/requests'));
    expect(first?.query).toBe('status=on_hand&access_token=[redacted]&page=1');
    expect(second?.query).toBe('q=[redacted]&api_key=[redacted]');
  });
});
