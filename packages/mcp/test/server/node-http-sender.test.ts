import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendOverNodeHttp } from '../../src/server/node-http-sender';
import { LogbookSession, readBaseUrl } from '../../src/server/session';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local server answering with `handle`; resolves with its origin and its counts. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void) {
  const seen = { connections: 0, requests: 0 };
  const server = createServer((request, response) => {
    seen.requests++;
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => handle(request, response, body));
  });
  server.on('connection', () => seen.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('sendOverNodeHttp(request)', () => {
  it('sends the method, headers and body, and reads the status, headers and the whole body as UTF-8', async () => {
    let received: { method?: string | undefined; type?: string | undefined; body?: string } = {};
    const { origin } = await serve((request, response, body) => {
      received = { method: request.method, type: request.headers['content-type'], body };
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.setHeader('retry-after', '7');
      // One character split across two chunks: the text must still read it whole.
      const bytes = Buffer.from('{"name":"Señor"}');
      const split = bytes.indexOf(0xc3) + 1;
      response.writeHead(201, { 'content-type': 'application/json' });
      response.write(bytes.subarray(0, split));
      setImmediate(() => response.end(bytes.subarray(split)));
    });

    const answer = await sendOverNodeHttp({
      method: 'POST',
      url: `${origin}/rest/v1/receipts`,
      headers: { 'content-type': 'application/json' },
      body: '{"serial":"Ñ1"}',
      timeoutMs: 5_000,
    });

    expect(received).toEqual({ method: 'POST', type: 'application/json', body: '{"serial":"Ñ1"}' });
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('{"name":"Señor"}');
    expect(answer.headers.get('Retry-After')).toBe('7');
    expect(answer.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(answer.headers.get('x-absent')).toBeNull();
  });

  it('answers a redirect as it came, never following it', async () => {
    const elsewhere = await serve((_request, response) => response.end('followed'));
    const { origin } = await serve((_request, response) => {
      response.writeHead(302, { location: `${elsewhere.origin}/steal` }).end();
    });

    const answer = await sendOverNodeHttp({
      method: 'GET',
      url: `${origin}/rest/v1/books`,
      headers: { authorization: 'Bearer sbx_secret' },
      timeoutMs: 5_000,
    });

    expect(answer.status).toBe(302);
    expect(elsewhere.seen.requests).toBe(0);
  });

  it('keeps the connection for the next request', async () => {
    const { origin, seen } = await serve((_request, response) => response.end('{}'));
    for (let i = 0; i < 3; i++) {
      await sendOverNodeHttp({ method: 'GET', url: `${origin}/`, headers: {}, timeoutMs: 5_000 });
    }
    expect(seen).toEqual({ connections: 1, requests: 3 });
  });

  it('rejects with a TimeoutError when the answer does not come in time', async () => {
    const { origin } = await serve(() => undefined);
    await expect(
      sendOverNodeHttp({ method: 'GET', url: `${origin}/`, headers: {}, timeoutMs: 50 }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects with a TimeoutError when the body stops coming, though the answer began', async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"data":');
    });
    await expect(
      sendOverNodeHttp({ method: 'GET', url: `${origin}/`, headers: {}, timeoutMs: 100 }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects, never resolving with half a body, when the connection closes before the body ends', async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"data":', () => response.socket?.destroy());
    });
    await expect(
      sendOverNodeHttp({ method: 'GET', url: `${origin}/`, headers: {}, timeoutMs: 5_000 }),
    ).rejects.toMatchObject({ cause: { code: 'ECONNRESET' } });
  });
});

describe('a session without a fetch', () => {
  const sessionAt = (origin: string) =>
    new LogbookSession({
      baseUrl: readBaseUrl(origin),
      token: 'sbx_token',
      sandbox: undefined,
      timeoutMs: 50,
    });

  it('says a refused connection is refused', async () => {
    const { origin } = await serve(() => undefined);
    servers[0]!.close();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(sessionAt(origin).send({ method: 'GET', path: '/rest/v1/books' })).rejects.toThrow(
      `[@fflkit/mcp] GET /rest/v1/books got no answer from ${origin} (ECONNREFUSED)`,
    );
  });

  it('says an answer that does not come did not come in time', async () => {
    const { origin } = await serve(() => undefined);
    await expect(sessionAt(origin).send({ method: 'GET', path: '/rest/v1/books' })).rejects.toThrow(
      `[@fflkit/mcp] GET /rest/v1/books got no answer from ${origin} (no answer in time)`,
    );
  });

  it('sends the token and reads the answer', async () => {
    let authorization: string | undefined;
    const { origin } = await serve((request, response) => {
      authorization = request.headers.authorization;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    const answer = await sessionAt(origin).send({ method: 'GET', path: '/rest/v1/books' });
    expect(authorization).toBe('Bearer sbx_token');
    expect(answer).toMatchObject({ status: 200, text: '{"data":[]}' });
  });
});
