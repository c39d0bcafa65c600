import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSandbox,
  SandboxControlError,
  startSandbox,
  type RunningSandbox,
  type SandboxControl,
} from '../src/index';
import { startReceiver } from './support/local-receiver';
import { receiptBody } from './support/receipt-body';

let running: RunningSandbox;
let sandbox: SandboxControl;

beforeAll(async () => {
  running = await startSandbox();
  sandbox = connectSandbox(running.url);
});
afterAll(() => running.stop());

async function api(token: string, method: string, path: string, body?: string): Promise<Response> {
  return fetch(`${sandbox.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
}

describe('connectSandbox(url)', () => {
  it('takes the origin of any URL of the sandbox, the API base included', () => {
    const control = connectSandbox(`${running.url}/rest/v1/`);
    expect(control.url).toBe(running.url);
    expect(control.apiUrl).toBe(`${running.url}/rest/v1`);
  });

  it('calls the global fetch when the fetch option is undefined', async () => {
    const { token } = await connectSandbox(running.url, { fetch: undefined }).createAccount();
    expect(token).toMatch(/^sbx_/);
  });

  it('throws a TypeError naming the package for a URL that is not http(s)', () => {
    expect(() => connectSandbox('ftp://127.0.0.1')).toThrow(/^\[@fflkit\/sandbox\] connectSandbox\(\): url must be/);
    expect(() => connectSandbox('not a url')).toThrow(TypeError);
  });

  it('createAccount(options) makes an account over HTTP whose token the API accepts', async () => {
    const { account, token } = await sandbox.createAccount({ account_type: 'importer', books: ['Consignment'] });
    expect(account.account_type).toBe('importer');
    expect(token).toMatch(/^sbx_/);
    const books = (await (await api(token, 'GET', '/books')).json()) as { data: { name: string }[] };
    expect(books.data.map((book) => book.name).sort()).toEqual(['Consignment', 'Main']);
  });

  it('tokens.create(token, input) makes a read-only token, and tokens.revoke(token, id) ends it', async () => {
    const { token } = await sandbox.createAccount();
    const readOnly = await sandbox.tokens.create(token, { permissions: ['read'], name: 'Reports' });
    expect(readOnly.record.permissions).toEqual(['read']);
    expect((await api(readOnly.token, 'POST', '/receipts', receiptBody(1))).status).toBe(403);
    await sandbox.tokens.revoke(token, readOnly.record.id);
    expect((await api(readOnly.token, 'GET', '/books')).status).toBe(401);
  });

  it('books.create(token, name) adds a book; a second of the same name rejects with the 422', async () => {
    const { token } = await sandbox.createAccount();
    expect((await sandbox.books.create(token, 'Consignment')).name).toBe('Consignment');
    const failure = await sandbox.books.create(token, 'Consignment').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxControlError);
    expect((failure as SandboxControlError).status).toBe(422);
    expect((failure as SandboxControlError).body).toMatchObject({ errors: { name: expect.any(Array) } });
    expect((failure as SandboxControlError).message).toMatch(
      /^\[@fflkit\/sandbox\] POST \/_sandbox\/books answered 422: /,
    );
  });

  it('clock.now(token) and clock.advance(token, seconds) read and move the account clock', async () => {
    const { token } = await sandbox.createAccount();
    expect((await sandbox.clock.now(token)).offset_seconds).toBe(0);
    expect((await sandbox.clock.advance(token, 3600)).offset_seconds).toBe(3600);
    await expect(sandbox.clock.advance(token, 0)).rejects.toMatchObject({ name: 'SandboxControlError', status: 422 });
  });

  it('webhooks.ping, deliveries.list and deliveries.redeliver follow one delivery', async () => {
    const receiver = await startReceiver();
    try {
      const { token } = await sandbox.createAccount();
      const created = await api(
        token,
        'POST',
        '/webhooks',
        JSON.stringify({ url: `${receiver.url}/in`, events: ['*'] }),
      );
      const { data: endpoint } = (await created.json()) as { data: { id: number } };

      const pinged = await sandbox.webhooks.ping(token, endpoint.id);
      expect(pinged.event).toBe('ping');
      const again = await sandbox.deliveries.redeliver(token, pinged.id);
      expect(again.id).toBe(pinged.id);
      expect(again.attempts).toHaveLength(2);
      const listed = await sandbox.deliveries.list(token);
      expect(listed.map((delivery) => [delivery.id, delivery.state])).toEqual([[pinged.id, 'succeeded']]);
      expect((await sandbox.webhooks.enable(token, endpoint.id)).enabled).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('receipts.audit, attachDocument and putE4473 act on a receipt; requests(token) lists the API calls', async () => {
    const { token } = await sandbox.createAccount();
    const { data: receipt } = (await (await api(token, 'POST', '/receipts', receiptBody(2))).json()) as {
      data: { id: number };
    };

    const document = await sandbox.receipts.attachDocument(token, receipt.id, {
      name: 'invoice-2.pdf',
      mime_type: 'application/pdf',
      size: 48_213,
    });
    expect(document.name).toBe('invoice-2.pdf');
    const audit = await sandbox.receipts.audit(token, receipt.id);
    expect(audit.map((entry) => entry.action)).toContain('created');
    expect((await sandbox.requests(token)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /rest/v1/receipts 201',
    ]);
    await expect(sandbox.receipts.audit(token, receipt.id + 1000)).rejects.toMatchObject({ status: 404 });
  });

  it('tokens.list(token) lists the tokens that are not revoked, never their values', async () => {
    const { token } = await sandbox.createAccount();
    const reports = await sandbox.tokens.create(token, { permissions: ['read'], name: 'Reports' });
    const revoked = await sandbox.tokens.create(token, { permissions: ['write'], name: 'Old sync' });
    await sandbox.tokens.revoke(token, revoked.record.id);
    const listed = await sandbox.tokens.list(token);
    expect(listed.map((record) => [record.name, record.permissions])).toEqual([
      [null, ['read', 'write', 'delete']],
      ['Reports', ['read']],
    ]);
    expect(listed[1]).toEqual(reports.record);
    expect(JSON.stringify(listed)).not.toContain('sbx_');
  });

  it('webhooks.list(token) lists the endpoints with their consecutive failures', async () => {
    const { token } = await sandbox.createAccount();
    // Port 9 (discard) refuses the connection on the loopback interface: every attempt fails.
    const created = await api(
      token,
      'POST',
      '/webhooks',
      JSON.stringify({ url: 'http://127.0.0.1:9/in', events: ['*'] }),
    );
    const { data: endpoint } = (await created.json()) as { data: { id: number } };
    expect(await sandbox.webhooks.list(token)).toEqual([
      expect.objectContaining({ id: endpoint.id, enabled: true, consecutive_failures: 0 }),
    ]);
    await sandbox.webhooks.ping(token, endpoint.id);
    await sandbox.webhooks.ping(token, endpoint.id);
    expect(await sandbox.webhooks.list(token)).toEqual([
      expect.objectContaining({ id: endpoint.id, enabled: true, consecutive_failures: 2 }),
    ]);
  });

  it('webhooks.setChaos(token, id, settings) sets the delivery chaos, and webhooks.clearChaos(token, id) clears it', async () => {
    const { token } = await sandbox.createAccount();
    const created = await api(
      token,
      'POST',
      '/webhooks',
      JSON.stringify({ url: 'http://127.0.0.1:9/in', events: ['*'] }),
    );
    const { data: endpoint } = (await created.json()) as { data: { id: number } };
    const state = await sandbox.webhooks.setChaos(token, endpoint.id, {
      reorder: { window: 3 },
      duplicate: 0.5,
      seed: 11,
    });
    const chaos = { reorder: { window: 3, hold_ms: 1000 }, duplicate: 0.5, delay_ms: 0, seed: 11 };
    expect(state).toEqual(expect.objectContaining({ id: endpoint.id, chaos }));
    expect(await sandbox.webhooks.list(token)).toEqual([state]);
    const refused = await sandbox.webhooks
      .setChaos(token, endpoint.id, { reorder: { window: 1 } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxControlError);
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: { 'reorder.window': ['The reorder.window field must be at least 2.'] } },
    });
    await expect(sandbox.webhooks.clearChaos(token, endpoint.id)).resolves.toBeUndefined();
    expect(await sandbox.webhooks.list(token)).toEqual([expect.objectContaining({ chaos: null })]);
    await expect(sandbox.webhooks.clearChaos(token, endpoint.id + 1000)).rejects.toMatchObject({ status: 404 });
  });

  it('receipts.browse(token, query) answers a page of the receipts that match, up to 1,000 a page', async () => {
    const { token } = await sandbox.createAccount({ books: ['Consignment'] });
    for (const n of [11, 12, 13]) await api(token, 'POST', '/receipts', receiptBody(n));
    const page = await sandbox.receipts.browse(token, { q: 'SBX000001', field: 'serial_number', per_page: 2, page: 2 });
    expect(page.data.map((receipt) => receipt.serial_number)).toEqual(['SBX0000013']);
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(page.links.prev).toBe(`${running.url}/_sandbox/receipts?q=SBX000001&field=serial_number&per_page=2&page=1`);
    expect((await sandbox.receipts.browse(token)).meta.per_page).toBe(50);
    expect((await sandbox.receipts.browse(token, { book: 'Consignment' })).data).toEqual([]);
    const failure = await sandbox.receipts.browse(token, { per_page: 1001 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      name: 'SandboxControlError',
      status: 422,
      body: { errors: { per_page: ['The per page field must be between 1 and 1000.'] } },
    });
    // Browsing is not an API request: the request log holds only the three POSTs.
    expect((await sandbox.requests(token)).map((entry) => entry.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('receipts.export(token, query) answers the bound book as CSV text', async () => {
    const { token } = await sandbox.createAccount();
    await api(token, 'POST', '/receipts', receiptBody(21));
    await api(token, 'POST', '/receipts', receiptBody(22).replace('Example Arms Co.', 'Example Arms Co., \\"Ltd.\\"'));
    const csv = await sandbox.receipts.export(token, { book: 'Main' });
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'Manufacturer,Importer,Model,Serial Number,Type,Caliber or Gauge,Date of Receipt,Received From (Name),Received From (Address),Received From (License No.),Date of Disposition,Disposed To (Name),Disposed To (Address),Disposed To (Form 4473 Serial No.),Book,Record No.,Country of Origin,Status',
    );
    expect(lines.slice(1)).toEqual([
      'Example Arms Co.,,EX-9 Compact,SBX0000021,Pistol,9mm Luger,2025-03-14,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,1,,on_hand',
      '"Example Arms Co., ""Ltd.""",,EX-9 Compact,SBX0000022,Pistol,9mm Luger,2025-03-14,Example Firearms Wholesale LLC,,9-99-999-01-6A-00001,,,,,Main,2,,on_hand',
      '',
    ]);
    await expect(sandbox.receipts.export(token, { status: 'lost' as never })).rejects.toMatchObject({
      status: 422,
      body: { errors: { status: expect.any(Array) } },
    });
  });

  it('deleteAccount(token) deletes the account, and frees its place under the account limit', async () => {
    const limited = await startSandbox({ maxAccounts: 1 });
    try {
      const { token } = await limited.createAccount();
      const refused = await limited.createAccount().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SandboxControlError);
      expect(refused).toMatchObject({
        status: 409,
        message: expect.stringMatching(
          /^\[@fflkit\/sandbox\] POST \/_sandbox\/accounts answered 409: This sandbox is at its limit of 1 accounts: /,
        ) as unknown,
      });
      await limited.deleteAccount(token);
      await expect(limited.clock.now(token)).rejects.toMatchObject({ status: 401 });
      expect((await limited.createAccount()).token).toMatch(/^sbx_/);
    } finally {
      await limited.stop();
    }
  });

  it('reset(token) empties the account', async () => {
    const { token } = await sandbox.createAccount();
    await api(token, 'POST', '/receipts', receiptBody(3));
    await sandbox.reset(token);
    const page = (await (await api(token, 'GET', '/receipts')).json()) as { meta: { total: number } };
    expect(page.meta.total).toBe(0);
  });

  it("faults.add, list, delete and clear manage the rules that fail the account's API requests", async () => {
    const { token } = await sandbox.createAccount();
    const rule = await sandbox.faults.add(token, {
      operation: 'createReceipt',
      action: 'status',
      status: 503,
      retry_after: 2,
      times: 1,
    });
    expect(rule).toMatchObject({
      id: expect.any(Number),
      operation: 'createReceipt',
      status: 503,
      retry_after: 2,
      times: 1,
      fired: 0,
    });
    const failed = await api(token, 'POST', '/receipts', receiptBody(31));
    expect([failed.status, failed.headers.get('retry-after'), failed.headers.get('x-sandbox-fault')]).toEqual([
      503,
      '2',
      String(rule.id),
    ]);
    expect((await api(token, 'POST', '/receipts', receiptBody(31))).status).toBe(201);
    const second = await sandbox.faults.add(token, { method: 'GET', action: 'delay', delay_ms: 1 });
    expect((await sandbox.faults.list(token)).map((listed) => [listed.id, listed.fired])).toEqual([
      [rule.id, 1],
      [second.id, 0],
    ]);
    await sandbox.faults.delete(token, rule.id);
    expect((await sandbox.faults.list(token)).map((listed) => listed.id)).toEqual([second.id]);
    await expect(sandbox.faults.delete(token, rule.id)).rejects.toMatchObject({ status: 404 });
    await sandbox.faults.clear(token);
    expect(await sandbox.faults.list(token)).toEqual([]);
    await expect(sandbox.faults.add(token, { operation: 'advanceClock', action: 'drop' })).rejects.toMatchObject({
      status: 422,
      body: { errors: { operation: [expect.stringContaining('control calls are never faulted')] } },
    });
  });

  it('requests(token, filter) filters the log, the body typed by the operation', async () => {
    const { token } = await sandbox.createAccount();
    for (const n of [41, 42]) await api(token, 'POST', '/receipts', receiptBody(n));
    await api(token, 'GET', '/books');
    const created = await sandbox.requests(token, {
      operation: 'createReceipt',
      body: { serial_number: 'SBX0000042' },
    });
    expect(created.map((entry) => [entry.operation, entry.status, entry.body?.serial_number])).toEqual([
      ['createReceipt', 201, 'SBX0000042'],
    ]);
    expect((await sandbox.requests(token, { method: 'GET' })).map((entry) => entry.path)).toEqual(['/rest/v1/books']);
    expect(await sandbox.requests(token, { faulted: true })).toEqual([]);
    await expect(sandbox.requests(token, { status: 600 })).rejects.toMatchObject({
      status: 422,
      body: { errors: { status: expect.any(Array) } },
    });
  });

  it('requests(token, filter) rejects when the log dropped entries the filter could match, and from rules them out', async () => {
    const busy = await startSandbox({ rateLimit: 0 });
    try {
      const { token } = await busy.createAccount();
      for (let count = 0; count < 1001; count += 1)
        await fetch(`${busy.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
      const { now } = await busy.clock.advance(token, 1);
      await fetch(`${busy.apiUrl}/inventory`, { headers: { authorization: `Bearer ${token}` } });
      const cut = await busy.requests(token, { operation: 'listInventory' }).catch((error: unknown) => error);
      expect(cut).toBeInstanceOf(SandboxControlError);
      expect(cut).toMatchObject({
        status: 200,
        body: { truncated: true, dropped: 2 },
        message: expect.stringContaining(
          'the request log dropped entries this filter could match (it keeps 1,000 requests and 1 MiB per account; 2 dropped so far), so a count of them would be short: pass from',
        ),
      });
      expect(
        (await busy.requests(token, { operation: 'listInventory', from: now })).map((entry) => entry.path),
      ).toEqual(['/rest/v1/inventory']);
    } finally {
      await busy.stop();
    }
  });

  it('rejects with status 0 and says so when nothing answers at the URL', async () => {
    const control = connectSandbox('http://127.0.0.1:9', {
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(control.createAccount()).rejects.toMatchObject({
      status: 0,
      message: '[@fflkit/sandbox] POST /_sandbox/accounts: no answer from http://127.0.0.1:9; is the sandbox running?',
    });
  });
});

describe('startSandbox()', () => {
  it('createAccount(options) rejects a refused account with the SandboxControlError of the 422, as connectSandbox does', async () => {
    const failure = await running.createAccount({ account_type: 'gunsmith' as never }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxControlError);
    expect(failure).toMatchObject({ status: 422, body: { errors: { account_type: expect.any(Array) } } });
  });
});

describe('connectSandbox(url) against something that is not a sandbox', () => {
  it('rejects a 2xx answer that is not JSON instead of resolving with nothing', async () => {
    const control = connectSandbox('http://127.0.0.1:4010', {
      fetch: () => Promise.resolve(new Response('<!doctype html><title>Welcome</title>', { status: 200 })),
    });
    await expect(control.clock.now('sbx_token')).rejects.toMatchObject({
      name: 'SandboxControlError',
      status: 200,
      message:
        '[@fflkit/sandbox] GET /_sandbox/clock answered 200 without JSON: is http://127.0.0.1:4010 a FFLKit sandbox?',
    });
  });

  it('rejects an export answered with something other than CSV', async () => {
    const control = connectSandbox('http://127.0.0.1:4010', {
      fetch: () =>
        Promise.resolve(
          new Response('<!doctype html><title>Welcome</title>', {
            status: 200,
            headers: { 'content-type': 'text/html' },
          }),
        ),
    });
    await expect(control.receipts.export('sbx_token', { book: 'Main' })).rejects.toMatchObject({
      name: 'SandboxControlError',
      status: 200,
      message:
        '[@fflkit/sandbox] GET /_sandbox/receipts/export?book=Main answered 200 without CSV: is http://127.0.0.1:4010 a FFLKit sandbox?',
    });
  });
});

describe('connectSandbox(url): health, books, fixtures and events', () => {
  it('health() answers ok and the version, and rejects with status 0 when nothing answers', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await sandbox.health()).toEqual({ status: 'ok', version });
    await expect(connectSandbox('http://127.0.0.1:1').health()).rejects.toMatchObject({
      name: 'SandboxControlError',
      status: 0,
    });
  });

  it('books.list(token) lists the books with their counts, in id order', async () => {
    const { token } = await sandbox.createAccount({ books: ['Consignment'] });
    await api(token, 'POST', '/receipts', receiptBody(1));
    expect((await sandbox.books.list(token)).map((book) => [book.name, book.record_count])).toEqual([
      ['Main', 1],
      ['Consignment', 0],
    ]);
  });

  it('fixtures.load(file) loads a file and fixtures.export(token) gives the account back as one', async () => {
    const token = 'sbx_controlclient00000000000000001';
    const file = {
      accounts: [
        { name: 'Fixture Arms', books: ['Consignment'], tokens: [{ token }], receipts: [JSON.parse(receiptBody(5))] },
      ],
    };
    const loaded = await sandbox.fixtures.load(file);
    expect(loaded.accounts).toEqual([
      { id: expect.any(Number), name: 'Fixture Arms', created: true, tokens: 1, receipts: 1 },
    ]);
    expect((await sandbox.fixtures.load(file)).accounts[0]).toMatchObject({ created: false, receipts: 0 });
    const exported = await sandbox.fixtures.export(token);
    expect(exported).toEqual({
      accounts: [
        {
          account_type: 'dealer',
          name: 'Fixture Arms',
          books: ['Consignment'],
          tokens: [{ token, name: null, permissions: ['read', 'write', 'delete'] }],
          receipts: [{ ...JSON.parse(receiptBody(5)) }],
        },
      ],
    });
  });

  it('fixtures.load(file) rejects a faulty file with the 422 naming each fault by its path', async () => {
    const failure = await sandbox.fixtures
      .load({ accounts: [{ tokens: [{ token: 'sbx_short' }] }] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      name: 'SandboxControlError',
      status: 422,
      body: { errors: { 'accounts[0].tokens[0].token': [expect.any(String)] } },
    });
  });

  it('events(token) yields the requests and deliveries of the account as they happen, and ends when aborted', async () => {
    const { token } = await sandbox.createAccount();
    const controller = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const { event, data } of sandbox.events(token, { signal: controller.signal })) {
        seen.push(
          event === 'request'
            ? `${data.method} ${data.path} ${data.status}`
            : `${data.event} ${data.state} ${data.attempts.length}`,
        );
        if (seen.length === 4) controller.abort();
      }
    })();
    // The stream is open once the account's first request shows in it; until then, ask again.
    const receiver = await startReceiver();
    try {
      for (let tries = 0; seen.length === 0 && tries < 100; tries += 1) {
        await api(token, 'GET', '/books');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      seen.splice(0);
      await api(
        token,
        'POST',
        '/webhooks',
        JSON.stringify({ url: `${receiver.url}/hook`, events: ['receipt.created'] }),
      );
      await api(token, 'POST', '/receipts', receiptBody(9));
      await following;
    } finally {
      await receiver.close();
    }
    // A delivery is made inside the request that fires it, which is logged once answered.
    expect(seen).toEqual([
      'POST /rest/v1/webhooks 201',
      'receipt.created pending 0',
      'POST /rest/v1/receipts 201',
      'receipt.created succeeded 1',
    ]);
  });

  it('events(token) rejects a refused token with its 401, and ends when the sandbox stops', async () => {
    await expect(sandbox.events('sbx_unknown')[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      name: 'SandboxControlError',
      status: 401,
    });
    const other = await startSandbox();
    const { token } = await other.createAccount();
    const iterator = other.events(token)[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.stop();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
