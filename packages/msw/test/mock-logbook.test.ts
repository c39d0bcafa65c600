import { receiptBody } from '@fflkit/test-fixtures';
import { signPayload } from '@fflkit/webhooks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockLogbook, MockLogbookError } from '../src/index';

// The contract's sample receipt, under a serial number of this file's own.
const receipt = receiptBody({ serial_number: 'EXA-000123' });

const BASE_URL = 'https://logbook.example.test/rest/v1';
const mock = createMockLogbook({ baseUrl: BASE_URL });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

function call(token: string | undefined, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('createMockLogbook(options)', () => {
  it.each([
    [
      'a base URL that does not end in /rest/v1',
      { baseUrl: 'https://logbook.example.test/v1' },
      /baseUrl must be an http\(s\) origin followed by \/rest\/v1/,
    ],
    [
      'a base URL with a path before /rest/v1',
      { baseUrl: 'https://logbook.example.test/api/rest/v1' },
      /baseUrl must be/,
    ],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://logbook.example.test/rest/v1' }, /baseUrl must be/],
    [
      'a rateLimit that is not a whole number',
      { baseUrl: BASE_URL, rateLimit: 1.5 },
      /rateLimit must be a whole number/,
    ],
    ['a negative rateLimit', { baseUrl: BASE_URL, rateLimit: -1 }, /rateLimit must be a whole number/],
    [
      'a deliverWebhooks that is not a boolean',
      { baseUrl: BASE_URL, deliverWebhooks: 'yes' },
      /deliverWebhooks must be true or false/,
    ],
    ['a now that is not a function', { baseUrl: BASE_URL, now: 0 }, /now must be a function/],
    ['no options at all', undefined, /pass the options/],
  ])('throws a TypeError naming the package for %s', (_case, options, message) => {
    const make = () => createMockLogbook(options as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/^\[@fflkit\/msw\] createMockLogbook\(\): /);
    expect(make).toThrow(message);
  });

  it('createAccount(options) throws a MockLogbookError with the 422 for an account the service refuses', () => {
    expect(() => mock.createAccount({ account_type: 'gunsmith' as never })).toThrow(MockLogbookError);
    expect(() => mock.createAccount({ account_type: 'gunsmith' as never })).toThrow(
      /^\[@fflkit\/msw\] createAccount\(\) answered 422: .*account_type/,
    );
  });

  it('answers the base URL itself with the 404 of an unknown route, and HEAD as GET without a body', async () => {
    const { token } = mock.createAccount();
    const base = await call(token, 'GET', '');
    expect(base.status).toBe(404);
    expect(await base.json()).toEqual({ message: 'The route GET /rest/v1 could not be found.' });
    const head = await fetch(`${BASE_URL}/books`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await head.text()).toBe('');
    expect(
      (await fetch(`${BASE_URL}/receipts/9`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(404);
  });

  it('createAccount() returns an account and a token the handlers accept', async () => {
    const { account, token } = mock.createAccount({ account_type: 'dealer' });
    expect(account.account_type).toBe('dealer');
    const response = await call(token, 'GET', '/books');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { name: string }[] };
    expect(body.data.map((book) => book.name)).toEqual(['Main']);
  });

  it('answers POST /receipts with 201, then lists the receipt', async () => {
    const { token } = mock.createAccount();
    const created = await call(token, 'POST', '/receipts', receipt);
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: number; serial_number: string } };
    expect(data.serial_number).toBe('EXA-000123');

    const listed = await call(token, 'GET', '/receipts?per_page=10');
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { data: { id: number }[]; meta: { total: number } };
    expect(page.data.map((row) => row.id)).toEqual([data.id]);
    expect(page.meta.total).toBe(1);
  });

  it('answers an invalid receipt with 422 in the contract shape', async () => {
    const { token } = mock.createAccount();
    const response = await call(token, 'POST', '/receipts', { ...receipt, serial_number: '' });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body.errors)).toContain('serial_number');
  });

  it('answers a request without a token with 401 in the contract shape', async () => {
    const response = await call(undefined, 'GET', '/receipts');
    expect(response.status).toBe(401);
    const body = (await response.json()) as { message: string };
    expect(typeof body.message).toBe('string');
  });

  it('answers the 61st request of a minute with 429 and Retry-After', async () => {
    const { token } = mock.createAccount();
    for (let index = 0; index < 60; index += 1) {
      expect((await call(token, 'GET', '/books')).status).toBe(200);
    }
    const limited = await call(token, 'GET', '/books');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('answers a body over 1 MB with 413 as the sandbox does', async () => {
    const { token } = mock.createAccount();
    const response = await fetch(`${BASE_URL}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: 'x'.repeat(1_048_577),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'The request body is larger than 1 MB.' });
  });

  // A body of 100 MB, made as it is read: the mock must not read it all before its 413, whatever
  // Content-Length says (none, or a small one that lies).
  it.each([undefined, '10', '0', '-5', ''])(
    'stops reading a streamed body once it passes 1 MB (Content-Length %j)',
    async (length) => {
      const { token } = mock.createAccount();
      const chunk = new Uint8Array(64 * 1024).fill(0x78);
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          if (pulled > 1600) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const request = new Request(`${BASE_URL}/receipts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      if (length !== undefined) request.headers.set('content-length', length);
      const response = await fetch(request);
      expect(response.status).toBe(413);
      expect(pulled).toBeLessThan(100);
    },
  );

  it('answers a 204 without a body', async () => {
    const { token } = mock.createAccount();
    const created = (await (await call(token, 'POST', '/receipts', receipt)).json()) as { data: { id: number } };
    const deleted = await call(token, 'DELETE', `/receipts/${created.data.id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
  });

  it('captures one signed delivery for a receipt created with an endpoint subscribed', async () => {
    const { token } = mock.createAccount();
    const endpoint = await call(token, 'POST', '/webhooks', { url: 'https://hooks.example.test/in', events: ['*'] });
    expect(endpoint.status).toBe(201);
    const { secret } = (await endpoint.json()) as { secret: string };

    expect((await call(token, 'POST', '/receipts', receipt)).status).toBe(201);

    expect(mock.deliveries).toHaveLength(1);
    const [delivery] = mock.deliveries;
    expect(delivery?.url).toBe('https://hooks.example.test/in');
    expect(delivery?.headers['X-SVC-Event']).toBe('receipt.created');
    expect(delivery?.headers['X-SVC-Signature']).toBe(await signPayload(secret, delivery?.body ?? ''));
  });

  it('clock.advance(token, seconds) moves the account clock through the control API', async () => {
    const { token } = mock.createAccount();
    const before = await mock.clock.now(token);
    const after = await mock.clock.advance(token, 3600);
    expect(after.offset_seconds).toBe(before.offset_seconds + 3600);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);
    const control = await fetch('https://logbook.example.test/_sandbox/clock', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await control.json()) as { data: { offset_seconds: number } }).data.offset_seconds).toBe(3600);
  });

  it('clock.advance(token, 0) rejects with a MockLogbookError carrying the 422', async () => {
    const { token } = mock.createAccount();
    const failure = await mock.clock.advance(token, 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MockLogbookError);
    expect((failure as MockLogbookError).status).toBe(422);
    expect((failure as MockLogbookError).message).toMatch(/^\[@fflkit\/msw\]/);
  });

  it('reset() forgets every account and every captured delivery', async () => {
    const { token } = mock.createAccount();
    await call(token, 'POST', '/webhooks', { url: 'https://hooks.example.test/in', events: ['*'] });
    await call(token, 'POST', '/receipts', receipt);
    expect(mock.deliveries).toHaveLength(1);

    mock.reset();

    expect(mock.deliveries).toHaveLength(0);
    expect((await call(token, 'GET', '/receipts')).status).toBe(401);
  });
});
