import { BoundBook } from '@boundbook/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from './support/fake-clock';
import { json, stubFetch } from './support/stub-fetch';
import { BASE_URL, testClient } from './support/test-client';

describe('new BoundBook(options)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends the token as a bearer token and a User-Agent naming the app and the SDK', async () => {
    const { bb, calls } = testClient([json(200, { data: [] })], { token: 'sbx_secret', userAgent: 'acme-pos/3.2' });
    await bb.books.list();
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer sbx_secret');
    expect(calls[0]?.request.headers.get('user-agent')).toMatch(/^acme-pos\/3\.2 boundbook-sdk\/\S+$/);
  });

  it('keeps a base URL with or without a trailing slash', async () => {
    const { bb, calls } = testClient([json(200, { data: [] })], { baseUrl: `${BASE_URL}/` });
    await bb.books.list();
    expect(calls[0]?.url.href).toBe(`${BASE_URL}/books`);
  });

  it('reads BOUNDBOOK_TOKEN and BOUNDBOOK_BASE_URL when the options leave them out', async () => {
    vi.stubEnv('BOUNDBOOK_TOKEN', 'env-token');
    vi.stubEnv('BOUNDBOOK_BASE_URL', 'https://env.example.test/rest/v1');
    const { fetch, calls } = stubFetch(json(200, { data: [] }));
    await new BoundBook({ fetch, rateLimit: false }).books.list();
    expect(calls[0]?.url.origin).toBe('https://env.example.test');
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer env-token');
  });

  it('takes every option given as undefined as not given: the environment and the defaults apply', async () => {
    vi.stubEnv('BOUNDBOOK_TOKEN', 'env-token');
    vi.stubEnv('BOUNDBOOK_BASE_URL', BASE_URL);
    const { fetch, calls } = stubFetch(json(200, { data: [] }));
    const bb = new BoundBook({
      token: undefined,
      baseUrl: undefined,
      fetch,
      timeout: undefined,
      maxRetries: undefined,
      maxRetryAfter: undefined,
      rateLimit: undefined,
      userAgent: undefined,
      clock: undefined,
      random: undefined,
    });
    await bb.books.list({ signal: undefined });
    expect(calls[0]?.url.href).toBe(`${BASE_URL}/books`);
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer env-token');
    expect(calls[0]?.request.headers.get('user-agent')).toMatch(/^boundbook-sdk\/\S+$/);
  });

  it('applies the default time-out and retries when they are given as undefined', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = stubFetch(json(503, { message: 'Unavailable.' }));
    const bb = new BoundBook({ token: 't', baseUrl: BASE_URL, fetch, clock, random: () => 0, timeout: undefined, maxRetries: undefined });
    await expect(clock.settle(bb.books.list())).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(3);
    expect(clock.delays).toEqual([30_000, 500, 30_000, 1000, 30_000]);
  });

  it('throws a TypeError naming the option and the variable when there is no token', () => {
    vi.stubEnv('BOUNDBOOK_TOKEN', '');
    expect(() => new BoundBook({ baseUrl: BASE_URL })).toThrow(/no API token: pass \{ token \} or set BOUNDBOOK_TOKEN/);
  });

  it.each([undefined, 'logbook.example.com/rest/v1', 'ftp://example.com'])('throws a TypeError for the base URL %j', (baseUrl) => {
    vi.stubEnv('BOUNDBOOK_BASE_URL', '');
    expect(() => new BoundBook({ token: 't', ...(baseUrl === undefined ? {} : { baseUrl }) })).toThrow(TypeError);
  });

  it.each([
    [{ timeout: 0 }, 'timeout must be a number from 1'],
    [{ maxRetries: -1 }, 'maxRetries must be a whole number from 0'],
    [{ maxRetries: 1.5 }, 'maxRetries must be a whole number from 0'],
    [{ maxRetryAfter: Number.NaN }, 'maxRetryAfter must be a number from 0'],
    [{ rateLimit: { perMinute: 0 } }, 'rateLimit.perMinute must be a whole number from 1'],
  ])('throws a RangeError for %j', (options, message) => {
    expect(() => new BoundBook({ token: 't', baseUrl: BASE_URL, ...options })).toThrow(message);
  });

  it('runs openapi-fetch middleware of the raw client on every call, with the request to send', async () => {
    const { bb, calls } = testClient([json(200, { data: [] })]);
    const seen: string[] = [];
    bb.raw.use({
      onRequest({ request }) {
        seen.push(`${request.method} ${request.url}`);
        request.headers.set('X-Request-Id', 'abc');
      },
    });
    await bb.books.list();
    expect(seen).toEqual([`GET ${BASE_URL}/books`]);
    expect(calls[0]?.request.headers.get('x-request-id')).toBe('abc');
  });

  it('exposes the raw openapi-fetch client, which sends with the same token', async () => {
    const { bb, calls } = testClient([json(200, { data: [] })], { token: 'raw-token' });
    const { data } = await bb.raw.GET('/books');
    expect(data).toEqual({ data: [] });
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer raw-token');
  });
});
