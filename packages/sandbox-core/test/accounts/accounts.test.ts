import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import { errorsOf, harness, dataOf, dispositionBody, receiptBody, withAccount } from '../harness/harness';

describe('POST /_sandbox/accounts', () => {
  it('needs no token and answers 201 with a dealer account named by default and its token', async () => {
    const { call } = harness();
    const response = await call('POST', '/_sandbox/accounts');
    expect(response.status).toBe(201);
    expect(response.headers).toEqual({});
    expect(response.body).toEqual({
      data: { id: 1, name: 'Sandbox account', account_type: 'dealer', created_at: '2025-03-14T15:04:05Z' },
      token: expect.stringMatching(/^sbx_[A-Za-z0-9]{32}$/),
    });
  });

  it('validates the type, name and books', async () => {
    const { call } = harness();
    const response = await call('POST', '/_sandbox/accounts', {
      body: { account_type: 'pawnbroker', name: '', books: ['Repairs', ' Repairs', 'Main', 7] },
    });
    expect(errorsOf(response)).toEqual({
      account_type: ['The selected account type is invalid.'],
      name: ['The name field must not be empty.'],
      'books.3': ['The books.3 field must be a string.'],
    });
    const books = await call('POST', '/_sandbox/accounts', { body: { books: ['Repairs', ' Repairs', 'Main'] } });
    expect(errorsOf(books)).toEqual({
      'books.1': ['The books.1 field has a duplicate value.'],
      'books.2': ['The books.2 field must not be Main, which every account has.'],
    });
    const many = await call('POST', '/_sandbox/accounts', {
      body: { books: Array.from({ length: 51 }, (_, n) => `B${n}`) },
    });
    expect(errorsOf(many)).toEqual({ books: ['The books field must not have more than 50 items.'] });
  });
});

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
    // The log keeps the requests made before the reset, newest first.
    const log = dataOf<Array<{ method: string; path: string; status: number }>>(await control('GET', '/requests'));
    expect(log.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /rest/v1/webhooks 200',
      'GET /rest/v1/books 200',
      'POST /rest/v1/receipts/1/dispose 200',
      'POST /rest/v1/receipts 201',
      'POST /rest/v1/webhooks 201',
    ]);
    const next = dataOf<{ id: number; record: number }>(await api('POST', '/receipts', { body: receiptBody() }));
    expect([next.id, next.record]).toEqual([2, 1]);
    expect((await api('POST', '/receipts/2/dispose', { body: dispositionBody() })).status).toBe(200);
    expect(token).toMatch(/^sbx_/);
  });
});

describe('the account limit and DELETE /_sandbox/account', () => {
  it('answers 409 naming the limit and the way out past maxAccounts, until an account deletes itself', async () => {
    const { call, core } = harness({ maxAccounts: 2 });
    const first = (await call('POST', '/_sandbox/accounts')).body as { token: string };
    await call('POST', '/_sandbox/accounts');
    const refused = await call('POST', '/_sandbox/accounts');
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toMatch(
      /at its limit of 2 accounts: .*DELETE \/_sandbox\/account.*--max-accounts/,
    );
    expect(() => core.createAccount()).toThrow(/at its limit of 2 accounts/);

    await call('POST', '/rest/v1/receipts', { token: first.token, body: receiptBody() });
    expect(await call('DELETE', '/_sandbox/account', { token: first.token })).toEqual({ status: 204, headers: {} });
    expect((await call('GET', '/rest/v1/books', { token: first.token })).status).toBe(401);
    expect(core.snapshot().receipts).toEqual([]);
    expect(core.snapshot().accounts).toHaveLength(1);
    expect((await call('POST', '/_sandbox/accounts')).status).toBe(201);
  });

  it('refuses a maxAccounts that is not a whole number of at least 1', () => {
    for (const maxAccounts of [0, -1, 1.5, Number.NaN]) {
      expect(() => createSandboxCore({ maxAccounts })).toThrow(/^\[@fflkit\/sandbox-core\] maxAccounts must be/);
    }
  });

  it('is taken back whole by revertChanges()', async () => {
    const { api, call, core, token } = await withAccount({}, { recordChanges: true });
    await api('POST', '/receipts', { body: receiptBody() });
    core.confirmChanges(core.takeChanges());
    const before = core.snapshot();
    await call('DELETE', '/_sandbox/account', { token });
    core.revertChanges();
    expect(core.snapshot()).toEqual(before);
    expect((await api('GET', '/receipts/1')).status).toBe(200);
  });
});
