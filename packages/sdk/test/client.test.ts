import { LogbookClient, LogbookError } from '@fflkit/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from './support/fake-clock';
import { empty, json, stubFetch } from './support/stub-fetch';
import { BASE_URL, testClient } from './support/test-client';

describe('new LogbookClient(options)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends the token as a bearer token and a User-Agent naming the app and the SDK', async () => {
    const { logbook, calls } = testClient([json(200, { data: [] })], {
      token: 'sbx_secret',
      userAgent: 'acme-pos/3.2',
    });
    await logbook.books.list();
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer sbx_secret');
    expect(calls[0]?.request.headers.get('user-agent')).toMatch(/^acme-pos\/3\.2 fflkit-sdk\/\S+$/);
  });

  it('keeps a base URL with or without a trailing slash', async () => {
    const { logbook, calls } = testClient([json(200, { data: [] })], { baseUrl: `${BASE_URL}/` });
    await logbook.books.list();
    expect(calls[0]?.url.href).toBe(`${BASE_URL}/books`);
  });

  it('reads FFLKIT_TOKEN and FFLKIT_BASE_URL when the options leave them out', async () => {
    vi.stubEnv('FFLKIT_TOKEN', 'env-token');
    vi.stubEnv('FFLKIT_BASE_URL', 'https://env.example.test/rest/v1');
    const { fetch, calls } = stubFetch(json(200, { data: [] }));
    await new LogbookClient({ fetch, rateLimit: false }).books.list();
    expect(calls[0]?.url.origin).toBe('https://env.example.test');
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer env-token');
  });

  it('takes every option given as undefined as not given: the environment and the defaults apply', async () => {
    vi.stubEnv('FFLKIT_TOKEN', 'env-token');
    vi.stubEnv('FFLKIT_BASE_URL', BASE_URL);
    const { fetch, calls } = stubFetch(json(200, { data: [] }));
    const logbook = new LogbookClient({
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
    await logbook.books.list({ signal: undefined });
    expect(calls[0]?.url.href).toBe(`${BASE_URL}/books`);
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer env-token');
    expect(calls[0]?.request.headers.get('user-agent')).toMatch(/^fflkit-sdk\/\S+$/);
  });

  it('applies the default time-out and retries when they are given as undefined', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = stubFetch(json(503, { message: 'Unavailable.' }));
    const logbook = new LogbookClient({
      token: 't',
      baseUrl: BASE_URL,
      fetch,
      clock,
      random: () => 0,
      timeout: undefined,
      maxRetries: undefined,
    });
    await expect(clock.settle(logbook.books.list())).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(3);
    expect(clock.delays).toEqual([30_000, 500, 30_000, 1000, 30_000]);
  });

  it('throws a TypeError naming the option and the variable when there is no token', () => {
    vi.stubEnv('FFLKIT_TOKEN', '');
    expect(() => new LogbookClient({ baseUrl: BASE_URL })).toThrow(
      /no API token: pass \{ token \} or set FFLKIT_TOKEN/,
    );
  });

  it.each([
    undefined,
    'logbook.example.com/rest/v1',
    'ftp://example.com/rest/v1',
    'http://localhost:4010',
    'https://logbook.example.com/',
    'https://logbook.example.com/rest/v2',
    'https://logbook.example.com/rest/v1/receipts',
  ])('throws a TypeError for the base URL %j, naming it and the /rest/v1 the base address ends in', (baseUrl) => {
    vi.stubEnv('FFLKIT_BASE_URL', '');
    expect(() => new LogbookClient({ token: 't', ...(baseUrl === undefined ? {} : { baseUrl }) })).toThrow(
      new TypeError(
        `[@fflkit/sdk] baseUrl ${baseUrl} is not the service's base address, an absolute http(s) URL ending in /rest/v1 (the sandbox's apiUrl): pass { baseUrl } or set FFLKIT_BASE_URL`,
      ),
    );
  });

  it('names the permission Deno needs when reading FFLKIT_TOKEN is refused (process.env throws)', () => {
    const env = process.env;
    process.env = new Proxy(env, {
      get(target, name) {
        if (typeof name === 'string' && name.startsWith('FFLKIT_'))
          throw new Error(`NotCapable: Requires env access to "${name}", run again with the --allow-env flag`);
        return Reflect.get(target, name);
      },
    });
    try {
      expect(() => new LogbookClient({ baseUrl: BASE_URL })).toThrow(
        new TypeError(
          '[@fflkit/sdk] no API token: pass { token } or set FFLKIT_TOKEN (reading it was refused: Error: NotCapable: Requires env access to "FFLKIT_TOKEN", run again with the --allow-env flag; grant --allow-env=FFLKIT_TOKEN,FFLKIT_BASE_URL)',
        ),
      );
      expect(() => new LogbookClient({ token: 't' })).toThrow(
        '(reading it was refused: Error: NotCapable: Requires env access to "FFLKIT_BASE_URL"',
      );
    } finally {
      process.env = env;
    }
  });

  it('reads Deno.env where there is no process, and names the permission when Deno.env.get throws', () => {
    const global = globalThis as { process?: unknown; Deno?: unknown };
    const { process: nodeProcess } = global;
    const denoEnv = new Map([['FFLKIT_BASE_URL', BASE_URL]]);
    // Synchronous from here to the finally block: nothing else runs while there is no process.
    global.process = undefined;
    try {
      global.Deno = { env: { get: (name: string) => denoEnv.get(name) } };
      expect(() => new LogbookClient({ token: 'from-options' })).not.toThrow();
      global.Deno = {
        env: {
          get: () => {
            throw new Error('PermissionDenied: Requires env access');
          },
        },
      };
      expect(() => new LogbookClient({ baseUrl: BASE_URL })).toThrow('grant --allow-env=FFLKIT_TOKEN,FFLKIT_BASE_URL');
      delete global.Deno;
      expect(() => new LogbookClient({ baseUrl: BASE_URL })).toThrow(
        new TypeError('[@fflkit/sdk] no API token: pass { token } or set FFLKIT_TOKEN'),
      );
    } finally {
      global.process = nodeProcess;
      delete global.Deno;
    }
  });

  it.each([
    [{ timeout: 0 }, 'timeout must be a number from 1'],
    [{ maxRetries: -1 }, 'maxRetries must be a whole number from 0'],
    [{ maxRetries: 1.5 }, 'maxRetries must be a whole number from 0'],
    [{ maxRetryAfter: Number.NaN }, 'maxRetryAfter must be a number from 0'],
    [{ rateLimit: { perMinute: 0 } }, 'rateLimit.perMinute must be a whole number from 1'],
  ])('throws a RangeError for %j', (options, message) => {
    expect(() => new LogbookClient({ token: 't', baseUrl: BASE_URL, ...options })).toThrow(message);
  });

  it('calls a wrapped fetch for every attempt with the request to send, whose headers it may extend', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = stubFetch(json(503, { message: 'Unavailable.' }), json(200, { data: [] }));
    const seen: string[] = [];
    const logbook = new LogbookClient({
      token: 't',
      baseUrl: BASE_URL,
      clock,
      rateLimit: false,
      fetch: (url, init) => {
        seen.push(`${init.method} ${url}`);
        const headers = new Headers(init.headers);
        headers.set('X-Request-Id', 'abc');
        return fetch(url, { ...init, headers });
      },
    });
    await clock.settle(logbook.books.list());
    expect(seen).toEqual([`GET ${BASE_URL}/books`, `GET ${BASE_URL}/books`]);
    expect(calls.map((call) => call.request.headers.get('x-request-id'))).toEqual(['abc', 'abc']);
    expect(calls[1]?.request.headers.get('authorization')).toBe('Bearer t');
  });

  it('sends path parameters, the query, headers and a JSON body as openapi-fetch does, and parses the answer as asked', async () => {
    const { logbook, calls } = testClient([
      json(200, { data: [] }),
      json(200, { data: [] }),
      json(200, { data: [] }),
      new Response('plain', { status: 200 }),
      empty(204),
    ]);
    const listed = await logbook.raw.GET('/receipts', {
      params: { query: { serial_number: 'A&B/1', page: 2 } },
      headers: { 'X-Trace': 'one', 'X-Unset': undefined },
    });
    await logbook.raw.GET('/books', { headers: [['X-Pair', 'two']] });
    await logbook.raw.GET('/books', { headers: new Headers({ 'X-Headers': 'three' }) });
    expect(listed).toMatchObject({ data: { data: [] } });
    expect(calls[0]?.url.search).toBe('?serial_number=A%26B%2F1&page=2');
    expect(calls[0]?.request.headers.get('x-trace')).toBe('one');
    expect(calls[0]?.request.headers.has('x-unset')).toBe(false);
    expect(calls[0]?.request.headers.has('content-type')).toBe(false);
    expect(calls[1]?.request.headers.get('x-pair')).toBe('two');
    expect(calls[2]?.request.headers.get('x-headers')).toBe('three');
    const text = await logbook.raw.request('get', '/receipts/{id}', { params: { path: { id: 7 } }, parseAs: 'text' });
    expect(text.data).toBe('plain');
    expect(calls[3]?.url.pathname).toBe('/rest/v1/receipts/7');
    const removed = await logbook.raw.DELETE('/webhooks/{id}', { params: { path: { id: 3 } } });
    expect(removed.data).toBeUndefined();
    expect(removed.response.status).toBe(204);
  });

  it('throws a LogbookError naming the call and what to check when a success answers without JSON', async () => {
    const { logbook } = testClient([
      new Response('<html>Sign in to the network</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ]);
    const failure = await logbook.receipts.get(7).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LogbookError);
    expect((failure as Error).message).toBe(
      `[@fflkit/sdk] GET ${BASE_URL}/receipts/7 answered 200 without JSON: check baseUrl (it ends in /rest/v1) and any proxy in between`,
    );
    expect((failure as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('exposes the raw openapi-fetch client, which sends with the same token', async () => {
    const { logbook, calls } = testClient([json(200, { data: [] })], { token: 'raw-token' });
    const { data } = await logbook.raw.GET('/books');
    expect(data).toEqual({ data: [] });
    expect(calls[0]?.request.headers.get('authorization')).toBe('Bearer raw-token');
  });
});
