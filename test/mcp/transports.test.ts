import { spawnSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSandbox, startSandbox } from '@fflkit/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, httpClient, MCP_BIN, stdioClient, textsOf } from './mcp-clients';

// The same server over its two network transports: `fflkit-mcp` (the built executable) over
// stdio, and the sandbox's `/_sandbox/mcp` over Streamable HTTP, with what guards each.

let sandbox: RunningSandbox;
let token: string;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  ({ token } = await sandbox.createAccount({ name: 'Transports' }));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await sandbox?.stop();
});

// Spawning Node takes seconds on a busy machine.
describe('fflkit-mcp over stdio', { timeout: 30_000 }, () => {
  it('lists every tool against a sandbox and answers a call, writing nothing but the protocol on stdout', async () => {
    const { client, stderr } = await stdioClient(['--base-url', sandbox.apiUrl], { FFLKIT_TOKEN: token });
    clients.push(client);
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_receipt');
    expect(names).toContain('advance_clock');
    // @fflkit/sandbox is installed beside it in the workspace, as in any project that has the sandbox.
    expect(names).toContain('probe_conformance');
    const page = answerOf<{ meta: { per_page: number } }>(
      await client.callTool({ name: 'list_receipts', arguments: { per_page: 25 } }),
    );
    expect(page.meta.per_page).toBe(25);
    // A line on stdout that is not a JSON-RPC message is an error of the client's transport.
    expect(errors).toEqual([]);
    expect(stderr.join('')).toMatch(
      /^fflkit-mcp \S+: the tools of http:\/\/127\.0\.0\.1:\d+\/rest\/v1 over stdio, with the token given, probe_conformance from @fflkit\/sandbox\n$/,
    );
    expect(stderr.join('')).not.toContain(token);
  });

  it('exits 2 with its usage on stderr for a wrong command line', async () => {
    const run = spawnSync(process.execPath, [MCP_BIN, '--base-url', 'nowhere'], {
      encoding: 'utf8',
      env: { FFLKIT_TOKEN: token },
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^fflkit-mcp: the base URL must be/);
    expect(run.stderr).not.toContain(token);
  });
});

describe('fflkit-mcp against a base URL that is not a sandbox', { timeout: 30_000 }, () => {
  let service: Server;
  let serviceUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    // A service as the tools see it: no /_sandbox/health, and the API's answers.
    service = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      const body = request.url?.startsWith('/rest/v1/books')
        ? { data: [{ id: 1, name: 'Main' }] }
        : { message: 'Record not found.' };
      response.writeHead(request.url?.startsWith('/rest/v1/books') ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/rest/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => service?.close(resolve));
  });

  it('lists the read-only tools only, refuses a write, and sends the service nothing for it', async () => {
    const { client } = await stdioClient(['--base-url', serviceUrl], { FFLKIT_TOKEN: 'live_0123456789abcdef' });
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(answerOf(await client.callTool({ name: 'list_books', arguments: {} }))).toEqual({
      data: [{ id: 1, name: 'Main' }],
    });
    requests.length = 0;
    for (const name of ['create_receipt', 'delete_receipt', 'create_account', 'advance_clock']) {
      const result = await client.callTool({ name, arguments: { id: 1 } });
      expect(result.isError, name).toBe(true);
    }
    expect(requests.filter((request) => !request.endsWith('/_sandbox/health'))).toEqual([]);
  });

  it('lists the writes of the service with --allow-writes, never the sandbox controls', async () => {
    const { client } = await stdioClient(['--base-url', serviceUrl, '--allow-writes'], {
      FFLKIT_TOKEN: 'live_0123456789abcdef',
    });
    clients.push(client);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['create_receipt', 'dispose_receipt', 'delete_receipt', 'create_webhook']),
    );
    expect(names).not.toContain('advance_clock');
    expect(names).not.toContain('create_account');
  });
});

describe('/_sandbox/mcp over Streamable HTTP', () => {
  it("lists every tool and calls them as the token's account", async () => {
    const client = await httpClient(sandbox.url, token);
    clients.push(client);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('advance_clock');
    const books = answerOf<{ data: { name: string }[] }>(await client.callTool({ name: 'list_books', arguments: {} }));
    expect(books.data.map((book) => book.name)).toEqual(['Main']);
    const csv = await client.readResource({ uri: 'fflkit://account/bound-book.csv' });
    expect(csv.contents[0]).toMatchObject({ mimeType: 'text/csv' });
  });

  it('answers a web page of another origin 403, as every control call, before reading the token', async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/mcp`, {
      method: 'POST',
      headers: {
        origin: 'https://attacker.example',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^This sandbox refuses control API requests from the web page of https:\/\/attacker\.example/,
    );
  });

  it('answers a rebound host name 403 (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sent = request(
        `${sandbox.url}/_sandbox/mcp`,
        { method: 'POST', headers: { host: 'attacker.example', authorization: `Bearer ${token}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on('error', reject);
      sent.end('{}');
    });
    expect(status).toBe(403);
  });

  it('answers 401 without a token of the sandbox', async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer sbx_unknown',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('serves a tool call that a fault rule drops as a tool error, and the server goes on', async () => {
    const client = await httpClient(sandbox.url, token);
    clients.push(client);
    answerOf(
      await client.callTool({ name: 'create_fault', arguments: { operation: 'listBooks', action: 'drop', times: 1 } }),
    );
    const dropped = await client.callTool({ name: 'list_books', arguments: {} });
    expect(dropped.isError).toBe(true);
    expect(textsOf(dropped)[0]).toMatch(/^\[@fflkit\/mcp\] GET \/rest\/v1\/books got no answer/);
    expect(answerOf(await client.callTool({ name: 'list_books', arguments: {} }))).toHaveProperty('data');
  });
});
