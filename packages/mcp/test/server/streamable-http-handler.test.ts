import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '../../src/index';
import { fakeFetch, json } from '../support/fake-server';

const ENDPOINT = 'http://127.0.0.1:4010/_sandbox/mcp';
const TOKENS = new Set(['sbx_alice000000000000000000000001', 'sbx_bob00000000000000000000000002']);
const [ALICE, BOB] = [...TOKENS] as [string, string];
const handlers: StreamableHttpHandler[] = [];

afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** A handler over a sandbox that knows two tokens and has a clock. */
function handler(maxSessions?: number) {
  const { fetch, received } = fakeFetch((request) => {
    const token = request.headers.get('authorization')?.replace('Bearer ', '') ?? '';
    if (!TOKENS.has(token)) return json(401, { message: 'Unauthenticated.' });
    if (request.url.pathname === '/_sandbox/clock')
      return json(200, { data: { now: '2025-03-14T15:00:00Z', offset_seconds: 0 } });
    return undefined;
  });
  const made = createStreamableHttpHandler({ fetch, maxSessions });
  handlers.push(made);
  return { handle: made.handle, received };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

function post(token: string | undefined, message: unknown, session?: string): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  if (session !== undefined) {
    headers['mcp-session-id'] = session;
    headers['mcp-protocol-version'] = '2025-06-18';
  }
  return new Request(ENDPOINT, { method: 'POST', headers, body: JSON.stringify(message) });
}

async function open(handle: StreamableHttpHandler['handle'], token: string): Promise<string> {
  const response = await handle(post(token, INITIALIZE));
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id')!;
}

describe('createStreamableHttpHandler({ fetch })', () => {
  it('answers 401 with WWW-Authenticate to a request without a token of the sandbox', async () => {
    const { handle } = handler();
    for (const token of [undefined, 'sbx_unknown']) {
      const response = await handle(post(token, INITIALIZE));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('opens a session for a token of the sandbox, and answers its calls as JSON', async () => {
    const { handle } = handler();
    const session = await open(handle, ALICE);
    const response = await handle(post(ALICE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session));
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((tool) => tool.name)).toContain('advance_clock');
  });

  it('refuses to continue a session with another token of the sandbox (403)', async () => {
    const { handle } = handler();
    const session = await open(handle, ALICE);
    const response = await handle(post(BOB, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      message: 'This MCP session was opened with another token: continue it with that token, or open a new session.',
    });
  });

  it('answers 404 to a session it does not hold, so that the client opens a new one', async () => {
    const { handle } = handler();
    const response = await handle(post(ALICE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, 'nope'));
    expect(response.status).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const { handle } = handler();
    const session = await open(handle, ALICE);
    const deleted = await handle(
      new Request(ENDPOINT, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${ALICE}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      }),
    );
    expect(deleted.status).toBe(200);
    expect((await handle(post(ALICE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session))).status).toBe(404);
  });

  it('ends the session used least recently to open one more than it holds', async () => {
    const { handle } = handler(2);
    const first = await open(handle, ALICE);
    const second = await open(handle, ALICE);
    await handle(post(ALICE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, first));
    await open(handle, BOB);
    expect((await handle(post(ALICE, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, second))).status).toBe(404);
    expect((await handle(post(ALICE, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, first))).status).toBe(200);
  });

  it('keeps nothing of a request that opens no session', async () => {
    const { handle } = handler(1);
    const session = await open(handle, ALICE);
    const refused = await handle(post(ALICE, { jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(refused.status).toBe(400);
    expect((await handle(post(ALICE, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session))).status).toBe(200);
  });

  it('answers GET with 405: the server sends nothing unasked', async () => {
    const { handle, received } = handler();
    const response = await handle(new Request(ENDPOINT, { headers: { authorization: `Bearer ${ALICE}` } }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, DELETE');
    expect(received).toEqual([]);
  });

  it('refuses maxSessions that is no whole number of at least 1', () => {
    const { fetch } = fakeFetch(() => undefined);
    expect(() => createStreamableHttpHandler({ fetch, maxSessions: 0 })).toThrow(
      '[@fflkit/mcp] maxSessions must be a whole number of at least 1; got 0',
    );
  });
});
