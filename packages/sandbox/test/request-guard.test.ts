import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { corsHeaders, refusalOf } from '../src/request-guard';

const opened: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.stop()));
});

async function open(options: { allowedHosts?: string[]; cors?: string[] } = {}) {
  const sandbox = await createSandbox({ host: '127.0.0.1', port: 0, data: undefined, ...options });
  opened.push(sandbox);
  await sandbox.start();
  return { sandbox, port: Number(sandbox.server.info.port) };
}

/** A request over a real socket with any headers, Host included (fetch cannot set it). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const accounts = (sandbox: Sandbox) => sandbox.core.snapshot().accounts.length;

describe('the sandbox against web pages and foreign host names', () => {
  it('refuses a request with a foreign Host, whatever it carries, and makes no account', async () => {
    const { sandbox, port } = await open();
    const attack = await send(
      port,
      'POST',
      '/_sandbox/accounts',
      {
        host: 'evil.example',
        origin: 'http://evil.example',
        'content-type': 'text/plain',
      },
      '{}',
    );
    expect(attack.status).toBe(403);
    expect(JSON.parse(attack.body)).toEqual({
      message:
        'This sandbox does not answer to the host name evil.example: a web page could reach it that way (DNS rebinding). Start the sandbox with --allowed-hosts evil.example to allow it, such as a CI service name or a LAN name.',
    });
    expect((await send(port, 'GET', '/rest/v1/books', { host: `evil.example:${port}` })).status).toBe(403);
    expect(accounts(sandbox)).toBe(0);
  });

  it('refuses a control API request of a foreign page on its own Host, and a text body anywhere', async () => {
    const { sandbox, port } = await open();
    const host = `127.0.0.1:${port}`;
    const foreign = await send(
      port,
      'POST',
      '/_sandbox/accounts',
      { host, origin: 'http://evil.example', 'content-type': 'application/json' },
      '{}',
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).message).toMatch(
      /^This sandbox refuses control API requests from the web page of http:\/\/evil\.example: .* --cors http:\/\/evil\.example/,
    );
    const noOrigin = await send(port, 'POST', '/_sandbox/accounts', { host, 'sec-fetch-site': 'cross-site' }, '');
    expect(noOrigin.status).toBe(403);
    const text = await send(port, 'POST', '/_sandbox/accounts', { host, 'content-type': 'text/plain' }, '{}');
    expect(text.status).toBe(415);
    expect(accounts(sandbox)).toBe(0);
    const own = await send(
      port,
      'POST',
      '/_sandbox/accounts',
      { host, origin: `http://${host}`, 'content-type': 'application/json' },
      '{}',
    );
    expect(own.status).toBe(201);
    const curl = await send(port, 'POST', '/_sandbox/accounts', { host: `localhost:${port}` });
    expect(curl.status).toBe(201);
    expect(accounts(sandbox)).toBe(2);
  });

  it('answers the names given with --allowed-hosts, a domain and its subdomains with a leading dot', async () => {
    const { port } = await open({ allowedHosts: ['ci-sandbox', '.lan.example'] });
    for (const host of [
      'ci-sandbox',
      `ci-sandbox:${port}`,
      'lan.example',
      'box.lan.example:4010',
      '[::1]:4010',
      'app.localhost',
    ]) {
      expect((await send(port, 'POST', '/_sandbox/accounts', { host })).status, host).toBe(201);
    }
    expect((await send(port, 'POST', '/_sandbox/accounts', { host: 'ci-sandbox.evil.example' })).status).toBe(403);
  });

  it('answers the origins given with --cors: preflights, and CORS headers on every answer', async () => {
    const { port } = await open({ cors: ['http://localhost:5173'] });
    const host = `127.0.0.1:${port}`;
    const origin = 'http://localhost:5173';
    const preflight = await send(port, 'OPTIONS', '/_sandbox/accounts', {
      host,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
      'access-control-allow-headers': 'content-type',
    });
    const created = await send(
      port,
      'POST',
      '/_sandbox/accounts',
      { host, origin, 'content-type': 'application/json' },
      '{}',
    );
    expect(created.status).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(origin);
    const { token } = JSON.parse(created.body) as { token: string };
    const books = await send(port, 'GET', '/rest/v1/books', { host, origin, authorization: `Bearer ${token}` });
    expect(books.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-expose-headers': expect.stringContaining('X-RateLimit-Remaining'),
    });
    const other = await send(port, 'OPTIONS', '/rest/v1/books', {
      host,
      origin: 'http://evil.example',
      'access-control-request-method': 'GET',
    });
    expect(other.status).toBe(403);
  });
});

describe('refusalOf(path, headers, options) and corsHeaders(headers, options)', () => {
  it('reads bracketed IPv6 hosts and ports, and lets a request without Host or Origin through', () => {
    expect(refusalOf('/_sandbox/clock', { host: '[::1]:4010', origin: 'http://[::1]:4010' }, {})).toBeUndefined();
    expect(refusalOf('/_sandbox/clock', {}, {})).toBeUndefined();
    expect(refusalOf('/rest/v1/books', { host: 'localhost', origin: 'http://evil.example' }, {})).toBeUndefined();
    expect(refusalOf('/_sandbox/clock', { host: 'sandbox.test' }, { host: 'sandbox.test' })).toBeUndefined();
    expect(refusalOf('/_sandbox/clock', { host: 'anything.example' }, { allowedHosts: ['all'] })).toBeUndefined();
    expect(corsHeaders({ origin: 'http://a.example' }, {})).toBeUndefined();
    expect(corsHeaders({ origin: 'http://a.example' }, { cors: ['*'] })).toMatchObject({
      'Access-Control-Allow-Origin': 'http://a.example',
    });
  });
});
