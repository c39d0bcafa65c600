import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createLogbookMcpServer, type LogbookMcpServerOptions } from '../../src/index';

/** A request the fake server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
}

/** Answers a request, by method and path; `undefined` for 404. */
export type FakeRoutes = (request: ReceivedRequest) => Response | undefined | Promise<Response | undefined>;

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The health answer of a sandbox. */
export const SANDBOX_HEALTH = { data: { status: 'ok', version: '9.9.9' } };

/**
 * A `fetch` answered by `routes` in this process, recording every request: a service (or a
 * sandbox) as the tools see it, without a socket.
 */
export function fakeFetch(routes: FakeRoutes): { fetch: typeof fetch; received: ReceivedRequest[] } {
  const received: ReceivedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const entry = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.text(),
    };
    received.push(entry);
    return (await routes(entry)) ?? json(404, { message: 'Not found.' });
  };
  return { fetch, received };
}

/** An MCP client connected in memory to a server made with `options`. */
export async function connectClient(options: LogbookMcpServerOptions): Promise<Client> {
  const server = createLogbookMcpServer(options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'fflkit-mcp-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** The texts of a tool result. */
export function textsOf(result: unknown): string[] {
  return ((result as { content: { type: string; text: string }[] }).content ?? []).map((item) => item.text);
}
