import http from 'node:http';
import https from 'node:https';
import type { ApiAnswer } from '../tools/tool';

// How a session sends its requests when no `fetch` was given (`fflkit-mcp` over stdio): Node's
// own HTTP client over kept-alive connections. A tool call is one request and one answer
// relayed through the MCP transport, so the client's cost is most of what the server adds:
// `fetch` costs more than twice node:http's CPU per request, and a `Response` adds its stream.
// Like the session's `fetch`, this never follows a redirect (which would carry the token
// elsewhere): node:http does not follow any.

/** A request as the session sends it. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** How long the answer may take, whole body included. */
  readonly timeoutMs: number;
}

/** Sends a request and reads its whole answer. */
export type HttpSender = (request: HttpRequest) => Promise<ApiAnswer>;

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/**
 * Sends `request` with node:http(s). Rejects with a `TimeoutError` when the whole answer has not
 * come within its time-out, and with the socket's error (its `code` in `cause`) when none comes.
 */
export const sendOverNodeHttp: HttpSender = (request) =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url);
    const client = url.protocol === 'https:' ? https : http;
    const outgoing = client.request(url, {
      method: request.method,
      headers:
        request.body === undefined
          ? request.headers
          : { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      agent: agents[url.protocol as keyof typeof agents],
    });
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${request.timeoutMs} ms`);
      error.name = 'TimeoutError';
      outgoing.destroy(error);
    }, request.timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error.name === 'TimeoutError' ? error : new Error(error.message, { cause: error }));
    };
    outgoing.on('error', fail);
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', fail);
      incoming.on('end', () => {
        clearTimeout(timer);
        const headers = incoming.headers;
        resolve({
          status: incoming.statusCode ?? 0,
          headers: { get: (name) => headerValue(headers[name.toLowerCase()]) },
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    outgoing.end(request.body);
  });

/** A header as `Headers.get` gives it: repeated values joined by `, `, `null` when absent. */
function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
