import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogbookMcpServer, type LogbookMcpServerOptions } from '@fflkit/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

// MCP clients of the three transports, and a webhook receiver, for the tests of @fflkit/mcp
// against a running sandbox.

/** The built executable of @fflkit/mcp, as `npx @fflkit/mcp` runs it. */
export const MCP_BIN = fileURLToPath(new URL('../../packages/mcp/bin/fflkit-mcp.js', import.meta.url));

function newClient(): Client {
  return new Client({ name: 'fflkit-integration-test', version: '1.0.0' });
}

/** A client connected in memory to a server made with `options`. */
export async function inMemoryClient(options: LogbookMcpServerOptions): Promise<Client> {
  const server = createLogbookMcpServer(options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  return client;
}

/** A client of `fflkit-mcp` run over stdio with `args` and `env`; `stderr` collects what it writes there. */
export async function stdioClient(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_BIN, ...args],
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const client = newClient();
  await client.connect(transport);
  return { client, stderr };
}

/** A client of a sandbox's `/_sandbox/mcp`, authenticated with `token`. */
export async function httpClient(origin: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/_sandbox/mcp', origin), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = newClient();
  await client.connect(transport);
  return client;
}

/** The texts of a tool result. */
export function textsOf(result: unknown): string[] {
  return ((result as { content?: { text: string }[] }).content ?? []).map((item) => item.text);
}

/** The first text of a tool result, parsed as JSON; throws with the texts when the call failed. */
export function answerOf<T = Record<string, unknown>>(result: unknown): T {
  const texts = textsOf(result);
  if ((result as { isError?: boolean }).isError === true) throw new Error(`the tool failed: ${texts.join(' ')}`);
  return JSON.parse(texts[0] ?? 'null') as T;
}

/** A delivery the receiver got. */
export interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A webhook receiver on a free port of 127.0.0.1 that answers `status()` and records every delivery. */
export async function startReceiver(status: () => number = () => 200): Promise<{
  url: string;
  received: Received[];
  /** Resolves once the receiver has got `count` deliveries in all. */
  until(count: number): Promise<void>;
  stop(): Promise<void>;
}> {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(delivery);
      response.writeHead(status()).end();
      for (const wait of waiting.filter((each) => each.count <= received.length)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/logbook`,
    received,
    until: (count) =>
      received.length >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
