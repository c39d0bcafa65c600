import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, SandboxControlError, startSandbox, type RunningSandbox, type SandboxControl } from '../src/index';
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
    expect(() => connectSandbox('ftp://127.0.0.1')).toThrow(/^\[@boundbook\/sandbox\] connectSandbox\(\): url must be/);
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
    expect((failure as SandboxControlError).message).toMatch(/^\[@boundbook\/sandbox\] POST \/_sandbox\/books answered 422: /);
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
      const created = await api(token, 'POST', '/webhooks', JSON.stringify({ url: `${receiver.url}/in`, events: ['*'] }));
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
    const { data: receipt } = (await (await api(token, 'POST', '/receipts', receiptBody(2))).json()) as { data: { id: number } };

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

  it('reset(token) empties the account', async () => {
    const { token } = await sandbox.createAccount();
    await api(token, 'POST', '/receipts', receiptBody(3));
    await sandbox.reset(token);
    const page = (await (await api(token, 'GET', '/receipts')).json()) as { meta: { total: number } };
    expect(page.meta.total).toBe(0);
  });

  it('rejects with status 0 and says so when nothing answers at the URL', async () => {
    const control = connectSandbox('http://127.0.0.1:9', { fetch: () => Promise.reject(new TypeError('fetch failed')) });
    await expect(control.createAccount()).rejects.toMatchObject({
      status: 0,
      message: '[@boundbook/sandbox] POST /_sandbox/accounts: no answer from http://127.0.0.1:9; is the sandbox running?',
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
      message: '[@boundbook/sandbox] GET /_sandbox/clock answered 200 without JSON: is http://127.0.0.1:4010 a BoundBook sandbox?',
    });
  });
});
