import { MAX_BODY_BYTES, type SandboxRequest } from '@boundbook/sandbox-core';

/**
 * Turns a Fetch request into the core's transport-free request: upper-case method, the path, the
 * raw query without `?`, lower-case headers
 * with `host` and `x-forwarded-proto` taken from the URL (the core builds pagination links from
 * them, so an `https` base URL gets `https` links, as the sandbox behind a proxy does), and the
 * body as UTF-8 text (`undefined` when empty). Resolves with `'too-large'` for a body over 1 MB,
 * which the service refuses with a 413.
 *
 * @example
 * ```ts
 * const sandboxRequest = await toSandboxRequest(new Request('https://api.test/rest/v1/books?page=2'));
 * sandboxRequest.path; // '/rest/v1/books'
 * sandboxRequest.query; // 'page=2'
 * ```
 */
export async function toSandboxRequest(request: Request): Promise<SandboxRequest | 'too-large'> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  headers['host'] = url.host;
  headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
  let body: string | undefined;
  if (request.body !== null) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) return 'too-large';
    body = bytes.byteLength === 0 ? undefined : new TextDecoder().decode(bytes);
  }
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.startsWith('?') ? url.search.slice(1) : url.search,
    headers,
    body,
  };
}
