import type {
  CoreChangeSet,
  CreatedAccount,
  SandboxCore,
  SandboxRequest,
  SandboxResponse,
  SandboxSnapshot,
} from '@fflkit/sandbox-core';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { request } from 'node:http';
import type { Server } from '@hapi/hapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../src/persistence/memory-storage';
import { CorePersister, type PersistedCore } from '../src/persistence/persister';
import { createSandboxServer } from '../src/server';

/** The fake core, with what it saw and what it keeps, for assertions. */
interface FakeCore extends PersistedCore, Pick<SandboxCore, 'respond' | 'createAccount' | 'watch'> {
  readonly requests: SandboxRequest[];
  /** Records kept by the fake: a POST adds one, so its `version` moves. */
  readonly items: { id: number; text: string | undefined }[];
}

/**
 * A stand-in for the sandbox core in tests of the transport: it echoes each request as its
 * body, answers `DELETE` with 204, and a `POST` stores one immutable record and moves `version`.
 */
function createFakeCore(snapshot?: SandboxSnapshot): FakeCore {
  const requests: SandboxRequest[] = [];
  const items = [...((snapshot?.['items'] as FakeCore['items'] | undefined) ?? [])];
  let version = 0;
  return {
    requests,
    items,
    get version() {
      return version;
    },
    async respond(request: SandboxRequest): Promise<SandboxResponse> {
      requests.push(request);
      if (request.method === 'DELETE') return { status: 204, headers: { 'x-fake': 'yes' } };
      if (request.method === 'POST') {
        const item = { id: items.length + 1, text: request.body };
        items.push(item);
        version += 1;
        return { status: 201, headers: {}, body: { data: item } };
      }
      return { status: 200, headers: { 'x-fake': 'yes' }, body: { echo: request } };
    },
    createAccount(): CreatedAccount {
      version += 1;
      return {
        account: { id: 1, name: 'Sandbox account', account_type: 'dealer', created_at: '2025-01-01T00:00:00Z' },
        token: 'sbx_fake',
      };
    },
    snapshot(): SandboxSnapshot {
      return { format: 1, items: [...items] };
    },
    takeChanges(): CoreChangeSet {
      throw new TypeError('the fake core does not record changes');
    },
    confirmChanges() {},
    watch: () => undefined,
    revertChanges() {},
  };
}

let core: FakeCore;
let server: Server;

beforeEach(async () => {
  core = createFakeCore();
  const persister = new CorePersister(core, new MemoryStorage());
  server = createSandboxServer({ core, persister });
});

afterEach(async () => {
  await server.stop();
});

describe('createSandboxServer() routes to the core', () => {
  it('hands a /rest/v1 request to the core with method, path, raw query, headers and body', async () => {
    const response = await server.inject({
      method: 'post',
      url: '/rest/v1/receipts?per_page=5&q=a%20b&q=c',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'One' },
      payload: '{"serial_number":"ABC"}',
    });
    expect(response.statusCode).toBe(201);
    expect(core.requests).toHaveLength(1);
    const [request] = core.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/rest/v1/receipts',
      query: 'per_page=5&q=a%20b&q=c',
      body: '{"serial_number":"ABC"}',
    });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-custom']).toBe('One');
  });

  it('hands a /_sandbox request to the core and answers with its status, headers and JSON body', async () => {
    const response = await server.inject({ method: 'GET', url: '/_sandbox/clock' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-fake']).toBe('yes');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.payload)).toMatchObject({
      echo: { method: 'GET', path: '/_sandbox/clock', query: '' },
    });
  });

  it('gives the core no body when the request has none', async () => {
    await server.inject({ method: 'GET', url: '/rest/v1/books' });
    await server.inject({ method: 'POST', url: '/_sandbox/accounts' });
    expect(core.requests.map((request) => request.body)).toEqual([undefined, undefined]);
  });

  it('answers a 204 from the core with no body at all', async () => {
    const response = await server.inject({ method: 'DELETE', url: '/rest/v1/receipts/1' });
    expect(response.statusCode).toBe(204);
    expect(response.payload).toBe('');
    expect(response.headers['x-fake']).toBe('yes');
  });

  it('passes the base path /rest/v1 itself to the core', async () => {
    await server.inject({ method: 'GET', url: '/rest/v1' });
    expect(core.requests[0]?.path).toBe('/rest/v1');
  });

  it('answers uncompressed whole bodies, whatever Accept-Encoding and Range ask', async () => {
    const response = await server.inject({
      method: 'GET',
      url: '/_sandbox/clock',
      // The echo of a long header makes a body large enough to be worth compressing.
      headers: { 'accept-encoding': 'gzip, deflate', range: 'bytes=0-3', 'x-pad': 'x'.repeat(2048) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(response.payload)).toMatchObject({ echo: { path: '/_sandbox/clock' } });
  });

  it('passes a body of exactly 1 MB to the core', async () => {
    const body = 'x'.repeat(1_048_576);
    const response = await server.inject({ method: 'POST', url: '/rest/v1/receipts', payload: body });
    expect(response.statusCode).toBe(201);
    expect(core.requests[0]?.body).toHaveLength(1_048_576);
  });
});

describe("createSandboxServer() answers the service API's reads as every other request", () => {
  const origin = 'http://localhost:5173';
  const reads = ['/rest/v1/receipts', '/rest/v1/receipts/7?x=1', '/rest/v1/books', '/rest/v1/search?q=a'];

  it.each(reads)('answers GET %s with the same header names, in the same order, as a catch-all answer', async (url) => {
    await server.stop();
    server = createSandboxServer({ core, persister: new CorePersister(core, new MemoryStorage()), cors: [origin] });
    const headers = { origin };
    const read = await server.inject({ method: 'GET', url, headers });
    const other = await server.inject({ method: 'GET', url: '/rest/v1/other', headers });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(origin);
    expect(Object.keys(read.headers)).toEqual(Object.keys(other.headers));
    expect(JSON.parse(read.payload)).toMatchObject({ echo: { method: 'GET', path: url.split('?')[0] } });
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('the fake core failed');
      },
    ],
    ['rejects', () => Promise.reject(new Error('the fake core failed'))],
  ])('answers a read whose core %s with 500 in the contract shape, with the CORS headers', async (_, respond) => {
    await server.stop();
    server = createSandboxServer({ core, persister: new CorePersister(core, new MemoryStorage()), cors: [origin] });
    core.respond = respond;
    for (const url of reads) {
      const response = await server.inject({ method: 'GET', url, headers: { origin } });
      expect(response.statusCode).toBe(500);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(JSON.parse(response.payload)).toEqual({
        message: 'The sandbox failed to answer this request (the fake core failed).',
      });
    }
  });

  it('answers a read with a malformed percent-encoding in its id with 400 in the contract shape', async () => {
    const response = await server.inject({ method: 'GET', url: '/rest/v1/receipts/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.payload)).toEqual({ message: 'The request is malformed: check its URL and headers.' });
    expect(core.requests).toHaveLength(0);
  });
});

describe('createSandboxServer() answers errors in the contract shape', () => {
  it.each(['/rest', '/rest/v2/receipts', '/_sandboxes', '/favicon.ico', '/index.html'])(
    'answers %s with 404 and {"message"}',
    async (url) => {
      const response = await server.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(response.payload)).toEqual({
        message:
          'Not found: the sandbox serves the API under /rest/v1, its control API under /_sandbox and its console at /.',
      });
      expect(core.requests).toHaveLength(0);
    },
  );

  it('answers a body over 1 MB with 413 and the contract message, before the core sees it', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/rest/v1/receipts',
      headers: { 'content-type': 'application/json' },
      payload: `"${'x'.repeat(1_048_576)}"`,
    });
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.payload)).toEqual({ message: 'The request body is larger than 1 MB.' });
    expect(core.requests).toHaveLength(0);
  });

  it('answers a chunked body that grows past 1 MB with 413 over a real connection, not a reset', async () => {
    await server.start();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.info.port,
          method: 'POST',
          path: '/rest/v1/receipts',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // No Content-Length: node sends the body chunked, so the limit is found while reading.
      req.write(Buffer.alloc(600_000, 0x20));
      req.end(Buffer.alloc(600_000, 0x20));
    });
    expect(answer).toEqual({ status: 413, text: JSON.stringify({ message: 'The request body is larger than 1 MB.' }) });
    expect(core.requests).toHaveLength(0);
  });

  it('answers a request the HTTP parser refuses with a JSON 400, after the answer before it', async () => {
    await server.start();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.info.port as number, '127.0.0.1', () => {
        // A valid request, then bytes that are no request at all, on the same connection.
        socket.write('GET /rest/v1/books HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nNOT A REQUEST\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const answers = raw.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answers[1]).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toEqual({
      message: expect.stringMatching(/^The request is malformed/),
    });
  });

  /** What the server sends back for raw bytes, read until it closes the connection (the client never does). */
  async function rawExchange(bytes: string): Promise<{ status: string; headers: string; body: unknown }> {
    await server.start();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.info.port as number, '127.0.0.1', () => socket.write(bytes));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    const [status = '', ...headers] = head.split('\r\n');
    return { status, headers: headers.join('\n'), body: body === '' ? undefined : JSON.parse(body) };
  }

  it.each([
    [
      'an invalid chunk size',
      'POST /rest/v1/receipts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      /^The request body is not valid chunked encoding \(Invalid character in chunk size\): send each chunk as its size in hexadecimal/,
    ],
    [
      'a Transfer-Encoding other than chunked',
      'POST /rest/v1/receipts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      /^The request has a Transfer-Encoding other than chunked, which no server can read: send the body with Transfer-Encoding: chunked or with Content-Length\.$/,
    ],
    [
      'an HTTP/1.1 request without Host',
      'GET /rest/v1/books HTTP/1.1\r\nAuthorization: Bearer sbx_x\r\n\r\n',
      /^The request has no Host header, which HTTP\/1\.1 requires: send the host and port you called/,
    ],
    ['a request line that is no request', 'NOT A REQUEST\r\n\r\n', /^The request is malformed \(.+\): check its/],
  ])('answers %s with a JSON 400 and closes the connection at once', async (_case, bytes, message) => {
    const answer = await rawExchange(bytes);
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers).toMatch(/^content-type: application\/json; charset=utf-8$/im);
    expect(answer.headers).toMatch(/^connection: close$/im);
    expect(answer.body).toEqual({ message: expect.stringMatching(message) });
    expect(core.requests).toHaveLength(0);
  });

  it('answers headers over the parser limit with a JSON 431', async () => {
    const answer = await rawExchange(
      `GET /rest/v1/books HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer.body).toEqual({ message: expect.stringMatching(/^The request headers are too large/) });
  });

  it('answers an HTTP/1.0 request without Host, which HTTP/1.0 allows', async () => {
    const answer = await rawExchange('GET /_sandbox/health HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe('HTTP/1.1 200 OK');
  });

  it('answers a path with a malformed percent-encoding with 400 and only {"message"}', async () => {
    const response = await server.inject({ method: 'GET', url: '/rest/v1/receipts/%zz' });
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.payload) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['message']);
    expect(body['message']).toMatch(/^The request is malformed/);
  });

  it.each([
    ['a malformed Content-Type', { 'content-type': 'application/json;;; =' }],
    ['a multipart Content-Type without a boundary', { 'content-type': 'multipart/form-data' }],
    ['a malformed Cookie', { cookie: 'a=b; ;;=="' }],
  ])('leaves a request with %s to the core instead of failing it in Hapi', async (_, headers) => {
    const response = await server.inject({
      method: 'POST',
      url: '/rest/v1/receipts',
      headers,
      payload: '{}',
    });
    expect(response.statusCode).toBe(201);
    expect(core.requests[0]?.body).toBe('{}');
  });

  it('never answers in the Hapi default error shape', async () => {
    const requests = [
      { method: 'GET', url: '/nowhere' },
      { method: 'GET', url: '/rest/v1/%E0%A4%A' },
      { method: 'POST', url: '/_sandbox/accounts', payload: 'y'.repeat(1_048_577) },
    ];
    for (const request of requests) {
      const response = await server.inject(request);
      const body = JSON.parse(response.payload) as Record<string, unknown>;
      expect(body).not.toHaveProperty('statusCode');
      expect(body).not.toHaveProperty('error');
      expect(typeof body['message']).toBe('string');
    }
  });
});

describe('GET /_sandbox/health', () => {
  it('answers 200 with ok and the version of package.json, without a token, never cached, without the core', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const response = await server.inject({ method: 'GET', url: '/_sandbox/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(response.payload)).toEqual({ data: { status: 'ok', version } });
    expect(core.requests).toEqual([]);
  });

  it('answers HEAD with the same status and headers, without a body', async () => {
    const response = await server.inject({ method: 'HEAD', url: '/_sandbox/health' });
    expect([response.statusCode, response.headers['cache-control'], response.payload]).toEqual([200, 'no-store', '']);
  });

  it('is refused with 403 to a host name the sandbox does not answer to, as every call is', async () => {
    const response = await server.inject({ method: 'GET', url: '/_sandbox/health', headers: { host: 'sandbox:4010' } });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.payload)).toEqual({ message: expect.stringContaining('--allowed-hosts sandbox') });
  });
});
