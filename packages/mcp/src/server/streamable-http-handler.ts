import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { LogbookTool } from '../tools/tool';
import { createLogbookMcpServer } from './logbook-mcp-server';

// The server over Streamable HTTP, as a sandbox serves it at `/_sandbox/mcp`: a Fetch handler
// (a web `Request` in, a `Response` out) that any HTTP framework can mount. Each request is
// authenticated by the bearer token of a sandbox account, checked against the sandbox itself;
// each MCP session has its own server (the account it acts as can change within it, after
// `create_account`) and may be continued only with the token that opened it. Answers are JSON,
// never event streams: the server sends nothing unasked.

/** Options of {@link createStreamableHttpHandler}. */
export interface StreamableHttpHandlerOptions {
  /**
   * The `fetch` that reaches the sandbox the tools drive: the sandbox hands in one that answers
   * through its own request handling, without a socket.
   */
  fetch: typeof fetch;
  /** Sessions held at once; opening one more ends the one used least recently. 64 by default. */
  maxSessions?: number | undefined;
  /** Tools to add to the contract's. */
  extraTools?: readonly LogbookTool[] | undefined;
}

/** A Fetch handler of MCP's Streamable HTTP transport, with its sessions. */
export interface StreamableHttpHandler {
  /** Answers one HTTP request to the MCP endpoint. */
  handle(request: Request): Promise<Response>;
  /** Ends every session. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** The SHA-256 of the `Authorization` header that opened the session. */
  readonly opener: Buffer;
}

const DEFAULT_MAX_SESSIONS = 64;

/**
 * Makes the Streamable HTTP handler of the sandbox's MCP endpoint. A request without a valid
 * token is 401; a session continued with another token is 403; an unknown session is 404 (the
 * client opens a new one); `GET` is 405, since the server sends nothing unasked.
 *
 * @example
 * ```ts
 * import { createStreamableHttpHandler } from '@fflkit/mcp';
 *
 * const mcp = createStreamableHttpHandler({ fetch });
 * const response = await mcp.handle(new Request('http://127.0.0.1:4010/_sandbox/mcp', { method: 'GET' }));
 * response.status; // 405
 * ```
 */
export function createStreamableHttpHandler(options: StreamableHttpHandlerOptions): StreamableHttpHandler {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) {
    throw new TypeError(`[@fflkit/mcp] maxSessions must be a whole number of at least 1; got ${String(maxSessions)}`);
  }
  // Insertion order is use order: a session used again is moved to the end.
  const sessions = new Map<string, Session>();

  const end = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };

  return {
    async handle(request) {
      if (request.method === 'GET') {
        return answer(405, 'The MCP endpoint sends nothing unasked: POST JSON-RPC messages to it.', {
          Allow: 'POST, DELETE',
        });
      }
      const authorization = request.headers.get('authorization') ?? '';
      const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
      const origin = new URL(request.url).origin;
      if (token === undefined || !(await isAccountToken(options.fetch, origin, token))) {
        return answer(401, 'Unauthenticated.', { 'WWW-Authenticate': 'Bearer' });
      }
      const opener = createHash('sha256').update(authorization).digest();
      const id = request.headers.get('mcp-session-id');
      if (id !== null) {
        const session = sessions.get(id);
        if (session === undefined) {
          return answer(404, `No MCP session ${id}: it ended or was never opened. Open a new session (initialize).`);
        }
        if (!timingSafeEqual(session.opener, opener)) {
          return answer(
            403,
            'This MCP session was opened with another token: continue it with that token, or open a new session.',
          );
        }
        sessions.delete(id);
        sessions.set(id, session);
        const response = await session.transport.handleRequest(request);
        if (request.method === 'DELETE') await end(id);
        return response;
      }
      const server = createLogbookMcpServer({
        baseUrl: origin,
        token,
        fetch: options.fetch,
        sandbox: true,
        extraTools: options.extraTools,
      });
      let opened: string | undefined;
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sessionId) => {
          opened = sessionId;
        },
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request);
      if (opened === undefined) {
        // Not an initialize request (the transport answered an error): nothing to keep.
        await server.close().catch(() => undefined);
        return response;
      }
      while (sessions.size >= maxSessions) await end(sessions.keys().next().value as string);
      sessions.set(opened, { transport, server, opener });
      return response;
    },
    async close() {
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}

/** Whether `token` is a token of a sandbox account: a control call made with it is not refused. */
async function isAccountToken(send: typeof fetch, origin: string, token: string): Promise<boolean> {
  const response = await send(`${origin}/_sandbox/clock`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status === 200;
}

/** An answer of the endpoint itself, in the contract's error shape. */
function answer(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ message }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
