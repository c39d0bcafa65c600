import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/console-route';
import { type DriftProxy, DriftProxyError, startDriftProxy } from '../../src/index';
import { type LocalReceiver, startReceiver } from '../support/local-receiver';

// The drift proxy's edges: the upstreams and receivers it takes, what it answers when they are
// gone, its guard of Host and origin, its own calls and console, and deliveries it relays.

let proxy: DriftProxy | undefined;
let receiver: LocalReceiver | undefined;
let consoleDir: string;

beforeAll(async () => {
  consoleDir = await mkdtemp(join(tmpdir(), 'fflkit-drift-console-'));
  await mkdir(join(consoleDir, 'assets'));
  await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>FFLKit sandbox</title>');
  await writeFile(join(consoleDir, 'assets', 'main-ABC123.js'), 'console.log(1);');
});
afterAll(() => rm(consoleDir, { recursive: true, force: true }));
afterEach(async () => {
  await proxy?.stop();
  await receiver?.close();
  proxy = undefined;
  receiver = undefined;
});

/** A port nothing listens on: one that was free a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A request with headers that fetch will not set (Host), to the path as written (not
 * normalised), answered as status, headers and text.
 */
function send(url: string, headers: Record<string, string>, method = 'GET') {
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('startDriftProxy()', { timeout: 30_000 }, () => {
  it.each([
    ['ftp://logbook.example.com/rest/v1'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['logbook.example.com'],
    ['https://user:secret@logbook.example.com'],
    ['https://logbook.example.com/rest/v1?key=1'],
  ])('refuses the upstream %s, saying what to pass', async (upstream) => {
    await expect(startDriftProxy({ upstream })).rejects.toThrow(DriftProxyError);
    await expect(startDriftProxy({ upstream })).rejects.toThrow(/^\[@fflkit\/sandbox\] startDriftProxy\(\): upstream /);
  });

  it('refuses a receiver that is not an http(s) URL', async () => {
    await expect(
      startDriftProxy({ upstream: 'http://127.0.0.1:1', webhooksTo: 'ws://127.0.0.1:3000' }),
    ).rejects.toThrow(/webhooksTo must be an http or https URL/);
  });

  it('answers 502 in the contract error shape when the upstream is down, and counts no exchange', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}` });
    const answer = await fetch(`${proxy.apiUrl}/books`, { headers: { authorization: 'Bearer sbx_x' } });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await answer.json()).toEqual({
      message: `The drift proxy could not reach the service at http://127.0.0.1:${port}/rest/v1: the connection was refused (nothing listens there). Check that it runs and that --upstream names its base URL.`,
    });
    expect(proxy.report()).toEqual({ exchanges: 0, deliveries: 0, violations: [] });
  });

  it('drops the connection when the upstream drops it without an answer, as the upstream did', async () => {
    const dropping = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` });
    await expect(fetch(`${proxy.apiUrl}/books`)).rejects.toThrow(TypeError);
    await new Promise((resolve) => dropping.close(resolve));
  });

  it('sends the path and query as they came, the Host of the upstream, and the caller its answer as the upstream gave it', async () => {
    const seen: Array<{ url: string | undefined; host: string | undefined; authorization: string | undefined }> = [];
    const upstream = createServer((request, response) => {
      seen.push({ url: request.url, host: request.headers.host, authorization: request.headers.authorization });
      response
        .writeHead(418, 'I Am A Teapot', { 'X-Custom': 'kept', 'content-type': 'text/plain' })
        .end('short and stout');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}/service/rest/v1` });
    const answer = await send(`${proxy.apiUrl}/receipts/../books?q=%2B1&x`, {
      authorization: 'Bearer sbx_pass0000000000000001',
    });
    expect(seen).toEqual([
      {
        url: '/service/rest/v1/receipts/../books?q=%2B1&x',
        host: `127.0.0.1:${port}`,
        authorization: 'Bearer sbx_pass0000000000000001',
      },
    ]);
    expect([answer.status, answer.headers['x-custom'], answer.text]).toEqual([418, 'kept', 'short and stout']);
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('answers its own names only, everywhere: a foreign Host is refused before anything is relayed', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({
      upstream: `http://127.0.0.1:${port}`,
      consoleDir,
      allowedHosts: ['tunnel.example'],
    });
    for (const path of ['/rest/v1/books', '/_drift/violations', '/', '/hooks']) {
      const refused = await send(`${proxy.origin}${path}`, { host: 'attacker.example' });
      expect([path, refused.status]).toEqual([path, 403]);
      expect(JSON.parse(refused.text).message).toMatch(
        /^This drift proxy does not answer to the host name attacker\.example: .* --allowed-hosts attacker\.example/,
      );
    }
    expect((await send(`${proxy.origin}/_drift/violations`, { host: 'tunnel.example' })).status).toBe(200);
    expect((await send(`${proxy.origin}/_drift/violations`, { host: 'localhost' })).status).toBe(200);
  });

  it('lets only its own origin read its calls (/_drift), not a page of another site', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}`, consoleDir });
    const host = new URL(proxy.origin).host;
    const foreign = await send(`${proxy.origin}/_drift/violations`, { host, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).message).toMatch(
      /^This drift proxy refuses control API requests from the web page of http:\/\/evil\.example/,
    );
    const crossSite = await send(`${proxy.origin}/_drift/violations`, { host, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const own = await send(`${proxy.origin}/_drift/violations`, { host, origin: proxy.origin });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.text)).toEqual({
      data: {
        upstream: `http://127.0.0.1:${port}/rest/v1`,
        webhooksTo: null,
        exchanges: 0,
        deliveries: 0,
        violations: [],
        rules: {},
      },
    });
  });

  it('serves the console for its Drift page, under the console CSP, and answers other paths and methods in the error shape', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}`, consoleDir });
    const page = await fetch(`${proxy.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<title>FFLKit sandbox</title>');
    expect((await fetch(`${proxy.origin}/assets/main-ABC123.js`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await fetch(`${proxy.origin}/assets/main-OLD000.js`)).status).toBe(404);
    const posted = await fetch(`${proxy.origin}/_drift/violations`, { method: 'POST' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const elsewhere = await fetch(`${proxy.origin}/somewhere`);
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()) as unknown).toEqual({
      message: `The drift proxy relays the service API under /rest/v1 (to http://127.0.0.1:${port}/rest/v1); GET /somewhere is neither.`,
    });
  });

  it('answers 400 to a request for an absolute URL: it is no forward proxy', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}` });
    const { port: own } = new URL(proxy.origin);
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(own), '127.0.0.1', () => {
        socket.end('GET http://internal.example/secret HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      });
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => resolve(received));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('it is not a forward proxy');
  });
});

describe('deliveries through the drift proxy', { timeout: 30_000 }, () => {
  const SECRET = 'whsec_driftproxy0000000000000000000000000001';
  const body = JSON.stringify({
    event: 'ping',
    timestamp: '2025-03-01T10:05:00Z',
    data: { webhook_id: 7, message: 'Webhook test ping.' },
  });
  const headers = (signature: string) => ({
    'content-type': 'application/json',
    'user-agent': 'Logbook-Webhook/1.0',
    'x-svc-event': 'ping',
    'x-svc-delivery': '3b1f6a2e-8c4d-4e5f-9a7b-1c2d3e4f5a6b',
    'x-svc-signature': signature,
  });
  const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('relays a delivery unchanged to the receiver, at the path it came to, and its answer back unchanged', async () => {
    receiver = await startReceiver(() => ({ status: 202, headers: { 'x-receiver': 'yes' } }));
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}`, webhooksTo: receiver.url, secret: SECRET });
    const answer = await fetch(`${proxy.origin}/hooks/logbook?from=svc`, {
      method: 'POST',
      headers: headers(sign(SECRET)),
      body,
    });
    expect([answer.status, answer.headers.get('x-receiver'), await answer.text()]).toEqual([202, 'yes', 'ok']);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ path: '/hooks/logbook?from=svc', body });
    expect(receiver.received[0]?.headers['x-svc-signature']).toBe(sign(SECRET));
    await expect.poll(() => proxy!.report().deliveries).toBe(1);
    expect(proxy.report().violations).toEqual([]);
  });

  it('reports a signature that the secret given does not make', async () => {
    receiver = await startReceiver(() => ({ status: 401 }));
    const port = await closedPort();
    proxy = await startDriftProxy({
      upstream: `http://127.0.0.1:${port}`,
      webhooksTo: `${receiver.url}/exact`,
      secret: SECRET,
    });
    const answer = await fetch(`${proxy.origin}/anything`, {
      method: 'POST',
      headers: headers(sign('whsec_another')),
      body,
    });
    expect(answer.status).toBe(401);
    expect(receiver.received[0]?.path).toBe('/exact');
    await expect.poll(() => proxy!.report().deliveries).toBe(1);
    expect(proxy.report().violations.map(({ path, pointer, choice }) => ({ path, pointer, choice }))).toEqual([
      { path: 'webhook:ping', pointer: '/headers/x-svc-signature', choice: 'webhooks.signature-key' },
    ]);
  });

  it('answers the service 502 when the receiver is down, so that the service retries', async () => {
    const port = await closedPort();
    proxy = await startDriftProxy({ upstream: `http://127.0.0.1:${port}`, webhooksTo: `http://127.0.0.1:${port}` });
    const answer = await fetch(`${proxy.origin}/hooks`, { method: 'POST', headers: headers(sign(SECRET)), body });
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { message: string }).message).toMatch(
      /^The drift proxy could not reach the receiver at /,
    );
  });
});
