import { describe, expect, it } from 'vitest';
import { LogbookSession, readBaseUrl } from '../../src/server/session';
import { fakeFetch, json, SANDBOX_HEALTH } from '../support/fake-server';

describe('readBaseUrl(given)', () => {
  it('takes the service address ending in /rest/v1, or an origin', () => {
    expect(readBaseUrl('http://127.0.0.1:4010/rest/v1/')).toEqual({
      apiUrl: 'http://127.0.0.1:4010/rest/v1',
      root: 'http://127.0.0.1:4010',
    });
    expect(readBaseUrl('http://127.0.0.1:4010')).toEqual({
      apiUrl: 'http://127.0.0.1:4010/rest/v1',
      root: 'http://127.0.0.1:4010',
    });
    expect(readBaseUrl('https://logbook.example.com/api/rest/v1')).toEqual({
      apiUrl: 'https://logbook.example.com/api/rest/v1',
      root: 'https://logbook.example.com/api',
    });
  });

  it.each(['127.0.0.1:4010', 'ftp://x/rest/v1', 'http://x/v1', 'http://u:p@x/rest/v1', 'http://x/rest/v1?a=1', ''])(
    'refuses %j, saying what to give',
    (given) => {
      expect(() => readBaseUrl(given)).toThrow(
        /^\[@fflkit\/mcp\] the base URL must be the service's http\(s\) address ending in \/rest\/v1/,
      );
    },
  );
});

function session(routes: Parameters<typeof fakeFetch>[0], token?: string) {
  const { fetch, received } = fakeFetch(routes);
  return {
    received,
    session: new LogbookSession({
      baseUrl: readBaseUrl('http://127.0.0.1:4010'),
      token,
      fetch,
      sandbox: undefined,
      timeoutMs: undefined,
    }),
  };
}

describe('LogbookSession', () => {
  it('is a sandbox when /_sandbox/health answers as one, and keeps knowing it', async () => {
    const { session: s, received } = session((request) =>
      request.url.pathname === '/_sandbox/health' ? json(200, SANDBOX_HEALTH) : undefined,
    );
    expect(await s.isSandbox()).toBe(true);
    expect(await s.isSandbox()).toBe(true);
    expect(received).toHaveLength(1);
  });

  it.each([
    ['a 404', () => json(404, { message: 'Not found.' })],
    ['another JSON', () => json(200, { status: 'ok' })],
    ['a page', () => new Response('<html>', { status: 200 })],
    ['a redirect', () => new Response(null, { status: 302, headers: { location: 'https://login.example.com' } })],
  ])('is no sandbox when the health call answers %s, and asks again next time', async (_name, answer) => {
    const { session: s, received } = session(answer);
    expect(await s.isSandbox()).toBe(false);
    expect(await s.isSandbox()).toBe(false);
    expect(received).toHaveLength(2);
  });

  it('sends the token as a bearer token, JSON bodies, and no token to a public call', async () => {
    const { session: s, received } = session(() => json(200, {}), 'sbx_abc');
    await s.send({ method: 'POST', path: '/rest/v1/receipts', body: { book: 'Main' } });
    await s.send({ method: 'POST', path: '/_sandbox/accounts', body: {}, public: true });
    expect(received[0]!.url.href).toBe('http://127.0.0.1:4010/rest/v1/receipts');
    expect(received[0]!.headers.get('authorization')).toBe('Bearer sbx_abc');
    expect(received[0]!.headers.get('content-type')).toBe('application/json');
    expect(received[0]!.body).toBe('{"book":"Main"}');
    expect(received[1]!.headers.get('authorization')).toBeNull();
  });

  it('refuses a call that needs a token when it has none, sending nothing', async () => {
    const { session: s, received } = session(() => json(200, {}));
    await expect(s.send({ method: 'GET', path: '/rest/v1/books' })).rejects.toThrow(
      '[@fflkit/mcp] This session has no token: create_account makes a sandbox account and acts as it',
    );
    expect(received).toEqual([]);
  });

  it('acts with the token it is told to from then on', async () => {
    const { session: s, received } = session(() => json(200, {}), 'sbx_first');
    s.actAs('sbx_second');
    await s.send({ method: 'GET', path: '/rest/v1/books' });
    expect(received[0]!.headers.get('authorization')).toBe('Bearer sbx_second');
    expect(s.scrubber.scrub('sbx_first then sbx_second')).toBe('[redacted] then [redacted]');
  });

  it('says where it got no answer', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    };
    const s = new LogbookSession({
      baseUrl: readBaseUrl('http://127.0.0.1:4010'),
      token: 't0k3n-of-mine',
      fetch: refused,
      sandbox: undefined,
      timeoutMs: undefined,
    });
    await expect(s.send({ method: 'GET', path: '/rest/v1/books' })).rejects.toThrow(
      '[@fflkit/mcp] GET /rest/v1/books got no answer from http://127.0.0.1:4010 (ECONNREFUSED): check that the server runs there',
    );
  });
});
