import { MAX_LOGGED_BODY_WEIGHT } from '../../src/routing/request-log';
import { createSandboxCore } from '../../src/core';
import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, receiptBody, withAccount } from '../harness/harness';

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
        operation: null,
        status: 404,
        duration_ms: 0,
        at: '2025-03-14T15:04:06Z',
        headers: { host: 'sandbox.test', authorization: 'Bearer [redacted]' },
        body: null,
        response_body: { message: 'The route GET /rest/v1/nothing could not be found.' },
        fault: null,
      },
      {
        id: 1,
        method: 'GET',
        path: '/rest/v1/receipts',
        query: 'status=on_hand',
        operation: 'listReceipts',
        status: 200,
        duration_ms: 0,
        at: '2025-03-14T15:04:05Z',
        headers: { host: 'sandbox.test', 'user-agent': 'inventory-sync/2.3', authorization: 'Bearer [redacted]' },
        body: null,
        response_body: null,
        fault: null,
      },
    ]);
  });

  it('keeps the body of an error answer, why a request was refused, credentials redacted; not a success', async () => {
    const { api, control } = await withAccount();
    await api('POST', '/receipts', { body: { ...receiptBody(), zip: '1234', serial_number: '' } });
    await api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/a', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    const [created, endpoint, refused] = dataOf<{ status: number; response_body: unknown }[]>(
      await control('GET', '/requests'),
    );
    expect(refused).toMatchObject({
      status: 422,
      response_body: {
        message: expect.stringMatching(/\(and 1 more error\)$/),
        errors: { serial_number: [expect.any(String)], zip: [expect.any(String)] },
      },
    });
    // The secret of the endpoint made is in its answer: never kept, as no success is.
    expect([endpoint?.status, endpoint?.response_body]).toEqual([201, null]);
    expect([created?.status, created?.response_body]).toEqual([201, null]);
  });

  it('keeps the last 1,000, includes those of revoked tokens, says what it dropped, and never moves the version', async () => {
    const { api, control, core } = await withAccount({}, { rateLimit: 0 });
    const version = core.version;
    for (let count = 0; count < 1005; count += 1) await api('GET', '/books');
    expect(core.version).toBe(version);
    const other = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as {
      data: { id: number };
      token: string;
    };
    await control('DELETE', `/tokens/${other.data.id}`);
    await api('GET', '/books', { token: other.token });
    const log = (await control('GET', '/requests')).body as {
      data: { id: number; status: number }[];
      truncated: boolean;
      dropped: number;
    };
    expect(log.data).toHaveLength(1000);
    expect(log.data[0]).toMatchObject({ id: 1006, status: 401 });
    expect(log.data[999]).toMatchObject({ id: 7 });
    expect([log.truncated, log.dropped]).toEqual([true, 6]);
  });

  it('drops the oldest entries past 1 MiB of bodies and headers, and keeps no body over a quarter of it', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 0 });
    const model = 'x'.repeat(200_000);
    for (let count = 0; count < 6; count += 1) await api('PUT', '/receipts/999999', { body: { model } });
    const log = (await control('GET', '/requests')).body as {
      data: { id: number; body: { model: string } | null }[];
      truncated: boolean;
      dropped: number;
    };
    expect(log.data.map((entry) => entry.id)).toEqual([6, 5, 4, 3, 2]);
    expect(log.data[0]?.body?.model).toBe(model);
    expect([log.truncated, log.dropped]).toEqual([true, 1]);
    // Too heavy to keep: the entry stays, without its body, and drops nothing.
    await api('PUT', '/receipts/999999', { body: { model: 'y'.repeat(MAX_LOGGED_BODY_WEIGHT) } });
    const heavy = (await control('GET', '/requests')).body as typeof log;
    expect([heavy.data[0]?.id, heavy.data[0]?.body, heavy.dropped]).toEqual([7, null, 1]);
  });

  it('weighs a body by its objects too, so that a body of many small ones cannot outgrow the budget', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 0 });
    // 3,500 empty objects: 10 KB of text, about 230 KB of memory; five of them are over 1 MiB.
    const objects = { items: Array.from({ length: 3500 }, () => ({})) };
    for (let count = 0; count < 5; count += 1) await api('PUT', '/receipts/999999', { body: objects });
    const log = (await control('GET', '/requests')).body as { data: { id: number }[]; dropped: number };
    expect([log.data.map((entry) => entry.id), log.dropped]).toEqual([[5, 4, 3, 2], 1]);
  });

  it('reads back each entry whole after the log wrapped at both limits', async () => {
    const { api, control, clock } = await withAccount({}, { rateLimit: 0 });
    for (let count = 1; count <= 1003; count += 1) {
      clock.ms += 1;
      await api('GET', '/books', { query: `page=${count}`, headers: { 'x-trace': String(count % 2) } });
    }
    // Five bodies of 200 KB drop the oldest reads past 1 MiB; the ring turns on past its first slot.
    const model = 'x'.repeat(200_000);
    for (let count = 0; count < 5; count += 1) await api('PUT', '/receipts/999999', { body: { model } });
    const log = (await control('GET', '/requests')).body as {
      data: Array<{ id: number; query: string; at: string; headers: Record<string, string>; body: unknown }>;
      dropped: number;
    };
    const reads = log.data.slice(5);
    expect(log.data.slice(0, 5).map((entry) => [entry.id, entry.body])).toEqual(
      [1008, 1007, 1006, 1005, 1004].map((id) => [id, { model }]),
    );
    expect(log.dropped).toBe(1008 - log.data.length);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThan(1000 - 5);
    reads.forEach((entry, at) => {
      const count = 1003 - at;
      expect(entry).toMatchObject({
        id: count,
        query: `page=${count}`,
        headers: { 'x-trace': String(count % 2) },
        body: null,
      });
      expect(Date.parse(entry.at)).toBe(Date.UTC(2025, 2, 14, 15, 4, 5) + count);
    });
  });

  it('says truncated only when a dropped entry arrived at or after from', async () => {
    const { api, control, clock } = await withAccount({}, { rateLimit: 0 });
    for (let count = 0; count < 1001; count += 1) await api('GET', '/books');
    clock.ms += 1500;
    await api('GET', '/inventory');
    const since = (from: string) =>
      control('GET', '/requests', { query: `from=${encodeURIComponent(from)}` }).then(
        (response) => response.body as { data: unknown[]; truncated: boolean },
      );
    expect(await since('2025-03-14T15:04:05Z')).toMatchObject({ truncated: true });
    const later = await since('2025-03-14T15:04:05.001Z');
    expect([later.truncated, later.data]).toEqual([
      false,
      [expect.objectContaining({ path: '/rest/v1/inventory', at: '2025-03-14T15:04:06.500Z' })],
    ]);
  });
});

describe('the request log keeps the JSON body of writes', () => {
  it('keeps a receipt as sent, and redacts tokens, secrets, credential fields and the user of a URL', async () => {
    const { api, control, token } = await withAccount();
    const receipt = receiptBody({ serial_number: ' EXA-1 ', note: `copied ${token}` });
    await api('POST', '/receipts', { body: receipt });
    await api('POST', '/webhooks', {
      body: { url: 'https://ops:hunter2@hooks.example.com/a?x=1', events: ['*'], secret: 'whsec_abc', password: null },
    });
    await api('POST', '/receipts', { rawBody: '{"book": "Main",' });
    await api('GET', '/receipts', { rawBody: '{"a":1}' });
    const [read, malformed, webhook, created] = dataOf<Array<{ body: unknown }>>(await control('GET', '/requests'));
    expect(created?.body).toEqual({ ...receipt, note: '[redacted]' });
    expect(webhook?.body).toEqual({
      url: 'https://[redacted]@hooks.example.com/a?x=1',
      events: ['*'],
      secret: '[redacted]',
      password: null,
    });
    expect([malformed?.body, read?.body]).toEqual([null, null]);
  });

  it('keeps no body nested deeper than 64 levels, and a __proto__ field as a field', async () => {
    const { api, control } = await withAccount();
    await api('POST', '/receipts', { rawBody: `{"a":${'['.repeat(70)}${']'.repeat(70)}}` });
    await api('POST', '/receipts', { rawBody: '{"__proto__":{"polluted":true}}' });
    const [polluting, deep] = dataOf<Array<{ body: unknown }>>(await control('GET', '/requests'));
    expect(deep?.body).toBeNull();
    expect(Object.keys(polluting?.body as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('GET /_sandbox/requests filters', () => {
  async function logged() {
    const h = await withAccount({}, { rateLimit: 0 });
    const created = dataOf<{ id: number }>(
      await h.api('POST', '/receipts', { body: receiptBody({ serial_number: 'EXA-1' }) }),
    );
    h.clock.ms += 1000;
    await h.api('POST', '/receipts', { body: receiptBody({ serial_number: 'EXA-2', purchase_amount: 10 }) });
    await h.api('GET', `/receipts/${created.id}`);
    h.clock.ms += 1000;
    await h.api('HEAD', '/receipts/999999');
    await h.api('POST', '/receipts', { body: { book: 'Main' } });
    const list = async (query: string) =>
      dataOf<Array<{ id: number }>>(await h.control('GET', '/requests', { query })).map((entry) => entry.id);
    return { ...h, list };
  }

  it('by method, path, operation, status and body, newest first', async () => {
    const { list } = await logged();
    expect(await list('method=POST')).toEqual([5, 2, 1]);
    expect(await list('method=HEAD')).toEqual([4]);
    expect(await list('path=/rest/v1/receipts/1')).toEqual([3]);
    expect(await list('operation=getReceipt')).toEqual([4, 3]);
    expect(await list('operation=createReceipt&status=201')).toEqual([2, 1]);
    expect(await list('status=422')).toEqual([5]);
    expect(await list(`body=${encodeURIComponent('{"serial_number":"EXA-2"}')}`)).toEqual([2]);
    expect(await list(`body=${encodeURIComponent('{"serial_number":"EXA-2","purchase_amount":389.5}')}`)).toEqual([]);
    expect(await list(`body=${encodeURIComponent('{"book":"Main"}')}`)).toEqual([5, 2, 1]);
    expect(await list('faulted=false')).toEqual([5, 4, 3, 2, 1]);
    expect(await list('faulted=true')).toEqual([]);
  });

  it('by time: from at or after, to before, on the account clock', async () => {
    const { list } = await logged();
    expect(await list(`from=${encodeURIComponent('2025-03-14T15:04:06Z')}`)).toEqual([5, 4, 3, 2]);
    expect(
      await list(`from=${encodeURIComponent('2025-03-14T15:04:06Z')}&to=${encodeURIComponent('2025-03-14T15:04:07Z')}`),
    ).toEqual([3, 2]);
    expect(await list(`to=${encodeURIComponent('2025-03-14T17:04:06+02:00')}`)).toEqual([1]);
  });

  it('refuses a filter it cannot read with 422 on its parameter', async () => {
    const { control } = await logged();
    const errors = async (query: string) => errorsOf(await control('GET', '/requests', { query }));
    expect(Object.keys(await errors('method=post'))).toEqual(['method']);
    expect(Object.keys(await errors('path=receipts'))).toEqual(['path']);
    expect(Object.keys(await errors('operation=advanceClock'))).toEqual(['operation']);
    expect(Object.keys(await errors('status=600&from=yesterday'))).toEqual(['status', 'from']);
    expect(Object.keys(await errors('faulted=yes'))).toEqual(['faulted']);
    expect(Object.keys(await errors('body=%5B1%5D'))).toEqual(['body']);
    expect(
      Object.keys(
        await errors(
          `from=${encodeURIComponent('2025-03-14T15:04:06Z')}&to=${encodeURIComponent('2025-03-14T15:04:06Z')}`,
        ),
      ),
    ).toEqual(['to']);
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

  it('judges a parameter percent-decoded, as the service reads it', async () => {
    const { api, control, token } = await withAccount();
    const hidden = `%73${token.slice(1)}`;
    await api('GET', '/receipts', { query: `x=${hidden}&pass%77ord=hunter2&y=whsec%5Fabc&page=1` });
    const [entry] = dataOf<Array<{ query: string }>>(await control('GET', '/requests'));
    expect(entry?.query).toBe('x=[redacted]&pass%77ord=[redacted]&y=[redacted]&page=1');
  });
});

describe('the request log redacts credentials in any header', () => {
  it('hides a header of any name that holds a token or a secret', async () => {
    const { api, control, token } = await withAccount();
    await api('GET', '/books', {
      headers: { 'X-Auth-Token': token, 'X-Webhook-Secret': 'whsec_abcdef', 'X-Trace': 'abc' },
    });
    const [entry] = dataOf<Array<{ headers: Record<string, string> }>>(await control('GET', '/requests'));
    expect(entry?.headers).toMatchObject({
      'x-auth-token': '[redacted]',
      'x-webhook-secret': '[redacted]',
      'x-trace': 'abc',
    });
  });

  it('hides a token or a secret in a header name, a query name or part, a path segment and a body field name', async () => {
    const { api, control, token } = await withAccount();
    await api('GET', `/books/${token}`, { query: `${token}&whsec_abcdef123=2&page=1`, headers: { [token]: '1' } });
    await api('POST', '/receipts', { body: { [token]: 1, nested: { whsec_abcdef123: 'v', kept: 'k' } } });
    const [write, read] = dataOf<
      Array<{ path: string; query: string; headers: Record<string, string>; body: unknown }>
    >(await control('GET', '/requests'));
    expect(read?.path).toBe('/rest/v1/books/[redacted]');
    expect(read?.query).toBe('[redacted]&[redacted]=[redacted]&page=1');
    expect(read?.headers).toMatchObject({ '[redacted]': '[redacted]' });
    expect(JSON.stringify([read, write])).not.toMatch(/sbx_|whsec_/i);
    expect(write?.body).toEqual({ '[redacted]': '[redacted]', nested: { '[redacted]': '[redacted]', kept: 'k' } });
  });
});

describe('the request log weighs headers', () => {
  it('counts header names too, so that many empty headers do not fill the log for free', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 0 });
    // 1,000 empty headers of 5-character names: 37 KB each against the 1 MiB budget.
    const headers = Object.fromEntries(
      Array.from({ length: 1000 }, (_, index) => [`x${String(index).padStart(4, '0')}`, '']),
    );
    for (let count = 0; count < 40; count += 1) await api('GET', '/books', { headers });
    const log = (await control('GET', '/requests')).body as { data: unknown[]; dropped: number };
    expect(log.data.length).toBeLessThan(30);
    expect(log.dropped).toBe(40 - log.data.length);
  });
});

describe('the request log keeps the headers a client sends again once', () => {
  it('shares one redacted copy between requests with the same headers, and copies anew when any changes', async () => {
    const core = createSandboxCore({ now: () => Date.UTC(2025, 2, 14, 15, 4, 5), rateLimit: 0 });
    const { token } = core.createAccount();
    // One headers object, changed between requests as a test reusing it may do.
    const headers: Record<string, string | undefined> = { authorization: `Bearer ${token}`, 'x-trace': 'a' };
    const get = () => core.handle({ method: 'GET', path: '/rest/v1/books', query: '', headers });
    await get();
    await get();
    headers['x-trace'] = 'b';
    await get();
    headers['x-new'] = '1';
    await get();
    delete headers['x-new'];
    await get();
    const answer = await core.handle({
      method: 'GET',
      path: '/_sandbox/requests',
      query: '',
      headers: { authorization: `Bearer ${token}` },
    });
    const entries = [...(answer.body as { data: Array<{ headers: Record<string, string> }> }).data].reverse();
    expect(entries.map((entry) => entry.headers)).toEqual([
      { authorization: 'Bearer [redacted]', 'x-trace': 'a' },
      { authorization: 'Bearer [redacted]', 'x-trace': 'a' },
      { authorization: 'Bearer [redacted]', 'x-trace': 'b' },
      { authorization: 'Bearer [redacted]', 'x-trace': 'b', 'x-new': '1' },
      { authorization: 'Bearer [redacted]', 'x-trace': 'b' },
    ]);
    expect(entries[1]!.headers).toBe(entries[0]!.headers);
    expect(entries[2]!.headers).not.toBe(entries[1]!.headers);
    expect(Object.isFrozen(entries[0]!.headers)).toBe(true);
  });
});
