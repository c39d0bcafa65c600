import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../src/core';
import { ApiError } from '../src/index';
import { sha256Hex as referenceSha256Hex } from '../src/support/crypto';
import { countingBytes, dataOf, harness, receiptBody, START, withAccount } from './harness/harness';

describe('createSandboxCore(options)', () => {
  it('throws a TypeError naming the package for a rateLimit that is not a whole number', () => {
    expect(() => createSandboxCore({ rateLimit: -1 })).toThrow(/^\[@fflkit\/sandbox-core\] rateLimit/);
    expect(() => createSandboxCore({ rateLimit: 1.5 })).toThrow(TypeError);
  });

  it('makes cores that share nothing: the same token and ids mean different accounts', async () => {
    const one = harness();
    const two = harness();
    const a = one.core.createAccount();
    const b = two.core.createAccount();
    expect(a.token).toBe(b.token);
    await one.call('POST', '/rest/v1/receipts', { token: a.token, body: receiptBody() });
    const listed = await two.call('GET', '/rest/v1/receipts', { token: b.token });
    expect((listed.body as { meta: { total: number } }).meta.total).toBe(0);
  });

  it('draws tokens from the injected byte source and the default Web Crypto one', () => {
    const seeded = createSandboxCore({ now: () => START, randomBytes: countingBytes() });
    const again = createSandboxCore({ now: () => START, randomBytes: countingBytes() });
    expect(seeded.createAccount().token).toBe(again.createAccount().token);
    const random = createSandboxCore();
    expect(random.createAccount().token).toMatch(/^sbx_[A-Za-z0-9]{32}$/);
    expect(random.createAccount().token).not.toBe(random.createAccount().token);
  });

  it('hashes tokens with the injected sha256Hex for storage, and a token it knows once only', async () => {
    const hashed: string[] = [];
    const sha256Hex = (text: string): string => {
      hashed.push(text);
      return referenceSha256Hex(text);
    };
    const { core, call } = harness({ sha256Hex });
    const { token } = core.createAccount();
    expect(hashed.at(-1)).toBe(token);
    const before = hashed.length;
    // The token was hashed when it was made: its lookups take the remembered hash.
    expect((await call('GET', '/rest/v1/books', { token })).status).toBe(200);
    expect((await call('GET', '/rest/v1/books', { token })).status).toBe(200);
    expect(hashed.slice(before)).toEqual([]);
    // A token it never saw is hashed once, then remembered: still refused every time.
    const unknown = 'sbx_unknown00000000000000000000';
    expect((await call('GET', '/rest/v1/books', { token: unknown })).status).toBe(401);
    expect((await call('GET', '/rest/v1/books', { token: unknown })).status).toBe(401);
    expect(hashed.slice(before)).toEqual([unknown]);
    expect(core.snapshot().tokens[0]?.hash).toBe(referenceSha256Hex(token));
  });

  it('throws a TypeError naming the package for a sha256Hex that is not SHA-256 in lowercase hex', () => {
    expect(() => createSandboxCore({ sha256Hex: (text) => referenceSha256Hex(text).toUpperCase() })).toThrow(
      /^\[@fflkit\/sandbox-core\] sha256Hex must return/,
    );
    expect(() => createSandboxCore({ sha256Hex: () => '' })).toThrow(TypeError);
  });
});

describe('core.createAccount(input)', () => {
  it('returns the account and a token holding every permission', async () => {
    const { core, call } = harness();
    const { account, token } = core.createAccount({ name: 'Example Firearms Retail LLC', books: ['Consignment'] });
    expect(account).toEqual({
      id: 1,
      name: 'Example Firearms Retail LLC',
      account_type: 'dealer',
      created_at: '2025-03-14T15:04:05Z',
    });
    expect((await call('GET', '/rest/v1/books', { token })).status).toBe(200);
    expect((await call('POST', '/rest/v1/receipts', { token, body: {} })).status).toBe(422);
    expect((await call('DELETE', '/rest/v1/receipts/99', { token })).status).toBe(404);
    const books = dataOf<{ name: string }[]>(await call('GET', '/rest/v1/books', { token }));
    expect(books.map((book) => book.name)).toEqual(['Main', 'Consignment']);
  });

  it("throws the control API's 422, status and body, for input it would refuse", () => {
    const { core } = harness();
    let refusal: unknown;
    try {
      core.createAccount({ books: ['Main'] });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 422,
      body: { errors: { 'books.0': ['The books.0 field must not be Main, which every account has.'] } },
      message: '[@fflkit/sandbox-core] 422: The books.0 field must not be Main, which every account has.',
    });
    expect(core.version).toBe(0);
  });
});

describe('core.version', () => {
  it('moves with every state change and stays for reads and refused requests', async () => {
    const { core, api } = await withAccount();
    const start = core.version;
    await api('GET', '/receipts');
    await api('POST', '/receipts', { body: {} });
    expect(core.version).toBe(start);
    await api('POST', '/receipts', { body: receiptBody() });
    expect(core.version).toBe(start + 1);
  });
});

describe('core.handle(request)', () => {
  it('answers a path outside both prefixes with 404 and no token', async () => {
    const { call } = harness();
    const response = await call('GET', '/');
    expect(response).toEqual({ status: 404, headers: {}, body: { message: 'The route GET / could not be found.' } });
  });

  it('answers an unknown route under a prefix with 404 before any token check', async () => {
    const { call } = harness();
    expect((await call('GET', '/rest/v1/nothing')).status).toBe(404);
    expect((await call('PATCH', '/rest/v1/receipts/1')).status).toBe(404);
    expect((await call('GET', '/rest/v1/receipts/abc')).status).toBe(404);
  });

  it('accepts a method in lower case', async () => {
    const { api } = await withAccount();
    expect((await api('get', '/books')).status).toBe(200);
  });
});

describe('core.respond(request)', () => {
  it('answers at once, as handle() answers, when the answer waits for nothing', async () => {
    // No rate limit, so that two answers to the same read are equal.
    const { core, token } = await withAccount({}, { rateLimit: 0 });
    const request = {
      method: 'GET',
      path: '/rest/v1/books',
      query: '',
      headers: { host: 'sandbox.test', authorization: `Bearer ${token}` },
    };
    const answer = core.respond(request);
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual(await core.handle(request));
  });

  it('answers with a promise when the answer waits for delivery attempts, as a clock advance does', async () => {
    const { core, token } = await withAccount();
    const answer = core.respond({
      method: 'POST',
      path: '/_sandbox/clock/advance',
      query: '',
      headers: { host: 'sandbox.test', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 60 }),
    });
    expect(answer).toBeInstanceOf(Promise);
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: { now: '2025-03-14T15:05:05Z' } });
  });
});

describe('core.watch(authorization, listener)', () => {
  it("tells of the account's requests and deliveries as they happen, and of nothing else", async () => {
    const { api, call, core, token } = await withAccount();
    const other = (await call('POST', '/_sandbox/accounts')).body as { token: string };
    const heard: string[] = [];
    const stop = core.watch(`Bearer ${token}`, (activity) => {
      heard.push(
        activity.event === 'request'
          ? `request ${activity.data.method} ${activity.data.path} ${activity.data.status}`
          : `delivery ${activity.data.event} ${activity.data.state}`,
      );
    });
    expect(stop).toBeTypeOf('function');
    await api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/a', events: ['receipt.created'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    await call('GET', '/rest/v1/books', { token: other.token });
    await Promise.all(core.deliveries.startDue(10));
    expect(heard).toEqual([
      'request POST /rest/v1/webhooks 201',
      'delivery receipt.created pending',
      'request POST /rest/v1/receipts 201',
      'delivery receipt.created pending',
    ]);
    stop?.();
    await api('GET', '/books');
    expect(heard).toHaveLength(4);
    expect(core.watch('Bearer sbx_unknown', () => undefined)).toBeUndefined();
    expect(core.watch(undefined, () => undefined)).toBeUndefined();
  });
});
