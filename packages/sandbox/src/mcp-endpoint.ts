import { MAX_BODY_BYTES, type SandboxRequest, type SandboxResponse } from '@fflkit/sandbox-core';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { SandboxMcpHandler } from './mcp-handler';

// `/_sandbox/mcp`: the MCP server of `@fflkit/mcp` over Streamable HTTP, for coding agents.
// The route is the sandbox's; the server is loaded only when the endpoint is first called, so
// that a sandbox nobody drives with an agent starts as fast as before (the cold-start benchmark).
// The guard of every `/_sandbox` call (Host and Origin, request-guard.ts) has run before the
// route: no web page and no rebound host name reaches it.

/** Answers one request as the sandbox does: through the core, once what it shows is saved. */
export type AnswerRequest = (request: SandboxRequest) => Promise<SandboxResponse>;

/** The MCP endpoint: its route, and what ends its sessions when the server stops. */
export interface McpEndpoint {
  readonly route: ServerRoute;
  close(): Promise<void>;
}

/** The MCP endpoint of a sandbox whose requests `answer` answers. */
export function mcpEndpoint(answer: AnswerRequest): McpEndpoint {
  let loading: Promise<SandboxMcpHandler> | undefined;
  const load = (): Promise<SandboxMcpHandler> => {
    loading ??= import('./mcp-handler').then(({ createSandboxMcpHandler }) => createSandboxMcpHandler(answer));
    return loading;
  };
  return {
    route: {
      method: '*',
      path: '/_sandbox/mcp',
      options: {
        // An MCP message is held to the limit of every request body (1 MB), and answered 413 as they are.
        payload: { parse: false, output: 'data', maxBytes: MAX_BODY_BYTES, override: 'application/octet-stream' },
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const handler = await load();
        const response = await handler.handle(toWebRequest(request));
        const body = Buffer.from(await response.arrayBuffer());
        const reply = (body.length === 0 ? h.response() : h.response(body)).code(response.status);
        response.headers.forEach((value, name) => {
          if (name !== 'content-length') reply.header(name, value);
        });
        return reply;
      },
    },
    async close() {
      if (loading !== undefined) await (await loading).close();
    },
  };
}

/** Headers that belong to one connection, not to the request a Fetch handler reads. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'host',
  'te',
  'trailer',
]);

function toWebRequest(request: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.raw.req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The Host was judged by the guard; the tools' links (pagination) name the sandbox by it. One
  // that makes no URL (a port that is no number) names nothing: the core's links say localhost then.
  const given = request.raw.req.headers.host ?? '';
  const host = URL.canParse(`http://${given}/`) ? given : 'localhost';
  const payload = request.payload as Buffer | null | undefined;
  const hasBody = payload !== null && payload !== undefined && payload.length > 0 && request.method !== 'get';
  return new globalThis.Request(`http://${host}/_sandbox/mcp`, {
    method: request.method.toUpperCase(),
    headers,
    ...(hasBody && { body: new Uint8Array(payload) }),
  });
}
