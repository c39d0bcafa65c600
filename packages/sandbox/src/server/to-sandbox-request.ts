import type { SandboxRequest } from '@boundbook/sandbox-core';
import type { Request } from '@hapi/hapi';

/**
 * Turns a Hapi request and its raw body into the core's transport-free request: upper-case
 * method, path as sent, raw query string, lower-case headers and the body as UTF-8 text
 * (`undefined` when the request has none).
 */
export function toSandboxRequest(request: Request, payload: Buffer | undefined): SandboxRequest {
  const body = payload !== undefined && payload.length > 0 ? payload.toString('utf8') : undefined;
  // The raw request target, not `request.url`: Hapi cannot build a URL when the Host header is
  // malformed, and the core needs only the path and the query string.
  const target = request.raw.req.url ?? '/';
  const mark = target.indexOf('?');
  return {
    method: request.method.toUpperCase(),
    path: mark === -1 ? target : target.slice(0, mark),
    query: mark === -1 ? '' : target.slice(mark + 1),
    headers: toHeaders(request.raw.req.headers),
    body,
  };
}

function toHeaders(incoming: NodeJS.Dict<string | string[]>): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(incoming)) {
    const value = incoming[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
