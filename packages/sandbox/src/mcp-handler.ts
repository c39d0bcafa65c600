import { conformanceTool, createStreamableHttpHandler, type StreamableHttpHandler } from '@fflkit/mcp';
import { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from '@fflkit/sandbox-core';
import { runConformance } from './conformance-probe';
import type { AnswerRequest } from './mcp-endpoint';

// The part of `/_sandbox/mcp` that is loaded on its first call (mcp-endpoint.ts): the MCP server
// of `@fflkit/mcp`, whose tools reach this very sandbox through a `fetch` that hands each request
// to the sandbox's own request handling (the core, then the save before the answer), without a
// socket. Without one, a tool call costs no connection, works on a sandbox that is not listening
// (`server.inject()` in tests) and on the bundled CLI (which lacks inject's module), and is
// answered exactly as the same request over HTTP would be: checks, rate limit, fault rules,
// request log. The Host and Origin guard is not run again: the MCP request itself passed it.
// The sandbox adds the drift guard's conformance probe as a tool: `@fflkit/mcp` cannot reach the
// probe itself without depending on this package, which depends on it.

/** The sandbox's MCP handler. */
export type SandboxMcpHandler = StreamableHttpHandler;

/** Makes the MCP handler whose tools are answered by `answer`. */
export function createSandboxMcpHandler(answer: AnswerRequest): SandboxMcpHandler {
  return createStreamableHttpHandler({ fetch: sandboxFetch(answer), extraTools: [conformanceTool(runConformance)] });
}

/**
 * A `fetch` answered by the sandbox itself: the request as the core takes it, the answer as a
 * web `Response`. A fault rule that drops the connection rejects, as `fetch` does when a server
 * hangs up; a body over the API's limit is a 413, as over HTTP.
 */
function sandboxFetch(answer: AnswerRequest): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = request.body === null ? undefined : await request.text();
    if (text !== undefined && Buffer.byteLength(text) > MAX_BODY_BYTES) {
      return json(413, { message: PAYLOAD_TOO_LARGE_MESSAGE });
    }
    const headers: Record<string, string> = { host: url.host };
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answered = await answer({
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      headers,
      body: text === '' ? undefined : text,
    });
    if (answered.fault?.drop === true) {
      throw new TypeError('fetch failed', { cause: new Error('the sandbox dropped the connection (a fault rule)') });
    }
    const { body } = answered;
    const responseHeaders = new Headers(answered.headers);
    if (typeof body === 'object' && body !== null)
      responseHeaders.set('content-type', 'application/json; charset=utf-8');
    const noBody = body === undefined || answered.status === 204 || answered.status === 304;
    return new Response(noBody ? null : typeof body === 'string' ? body : JSON.stringify(body), {
      status: answered.status,
      headers: responseHeaders,
    });
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
