import {
  keptByIdentity,
  MAX_BODY_BYTES,
  PAYLOAD_TOO_LARGE_MESSAGE,
  type SandboxRequest,
  type SandboxResponse,
} from '@fflkit/sandbox-core';
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { MockEndpoints } from './contract-http';

// The mock's MSW handlers: each Fetch request becomes the core's transport-free request, and the
// core's answer an MSW response, as the sandbox server turns its HTTP requests and answers.

/** Answers one request with the core's behaviour (and the delivery attempts it made due). */
export type AnswerRequest = (request: SandboxRequest) => Promise<SandboxResponse>;

/**
 * The handlers of a mock at `endpoints`: one handler for `${apiUrl}` itself (it names no
 * operation, but it is the service's: the core answers it with a 404), `${apiUrl}/*` and
 * `${origin}/_sandbox/*`, answered by `answer`. A body over 1 MB is answered 413 before the core,
 * as the sandbox does.
 */
export function createMockHandlers({ apiUrl, origin }: MockEndpoints, answer: AnswerRequest): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }): Promise<HttpResponse<string>> => {
    const sandboxRequest = await toSandboxRequest(request);
    if (sandboxRequest === 'too-large') {
      return toHttpResponse({ status: 413, headers: {}, body: { message: PAYLOAD_TOO_LARGE_MESSAGE } });
    }
    const answered = await answer(sandboxRequest);
    // A fault rule of the account acted: what the sandbox server does to its socket, done here.
    if (answered.fault !== undefined) {
      await holdBack(answered.fault.delayMs, request.signal);
      // No answer at all: the client's fetch rejects with a network error, as when a proxy drops it.
      if (answered.fault.drop) return HttpResponse.error();
    }
    return toHttpResponse(answered, sandboxRequest.method);
  };
  // One handler rather than one per path: MSW parses a request's URL and cookies again for every
  // handler it tries. The expression matches what the three paths did in MSW's path syntax:
  // case-insensitive, against the URL without its query, the base URL with or without a slash.
  const apiPath = escapeRegExp(apiUrl.slice(origin.length));
  return [http.all(new RegExp(`^${escapeRegExp(origin)}(?:${apiPath}(?:/.*)?|/_sandbox/.*)$`, 'i'), resolver)];
}

/**
 * Waits `ms` milliseconds of real time before a fault rule's answer goes out, as MSW's `delay()`
 * does, but ends early when the client gives up on the request (its time-out aborts it), so that
 * a delay longer than the client's time-out leaves no timer behind.
 */
function holdBack(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const end = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    signal.addEventListener('abort', end, { once: true });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A Fetch request as the core takes it: upper-case method, the path, the raw query without `?`,
 * lower-case headers with `host` and `x-forwarded-proto` taken from the URL (the core builds
 * pagination links from them, so an `https` base URL gets `https` links, as the sandbox behind a
 * proxy does), and the body as UTF-8 text (`undefined` when empty); `'too-large'` for a body over
 * 1 MB, which the service refuses with a 413.
 */
async function toSandboxRequest(request: Request): Promise<SandboxRequest | 'too-large'> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  // A Fetch `Headers` gives its names lower-case already.
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['host'] = url.host;
  headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
  let body: string | undefined;
  if (request.body !== null) {
    // A chunk at a time, whatever Content-Length says: a header may lie.
    const bytes = await readWithin(request.body, MAX_BODY_BYTES);
    if (bytes === 'too-large') return bytes;
    body = bytes.byteLength === 0 ? undefined : UTF8.decode(bytes);
  }
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    // `search` is '' or starts with '?'.
    query: url.search.slice(1),
    headers,
    body,
  };
}

/**
 * The bytes of a body of at most `limit` bytes; `'too-large'` as soon as it holds more, the rest
 * left unread (a test streaming 300 MB must not have them all held first), as the sandbox stops
 * reading.
 */
async function readWithin(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | 'too-large'> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.byteLength;
    if (length > limit) {
      // Not awaited: a source may settle its cancel only once its writer stops.
      reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(read.value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Decodes whole bodies only (never a stream), so one decoder serves every request. */
const UTF8 = new TextDecoder();

/**
 * The core's answer as an MSW response: the status and headers as given, the body as JSON with
 * the sandbox server's `Content-Type` (`application/json; charset=utf-8`, so that code reading
 * the header sees the same on both), and no body at all for a 204 or an answer to `HEAD`.
 */
function toHttpResponse(answer: SandboxResponse, method = 'GET'): HttpResponse<string> {
  if (answer.status === 204 || answer.body === undefined) {
    return new HttpResponse(null, { status: answer.status, headers: answer.headers });
  }
  if (method === 'HEAD') {
    return new HttpResponse(null, {
      status: answer.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers },
    });
  }
  // A text body (a CSV export) comes with its own Content-Type and is sent as it is.
  if (typeof answer.body === 'string')
    return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  return new HttpResponse(jsonText(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers },
  });
}

/**
 * The JSON text of each body that can never change, by identity: the core answers a list again
 * with the very same deeply frozen body while the state stands (its answer cache), so a page is
 * serialised once, not on every request. Any other body is serialised afresh.
 */
const jsonText = keptByIdentity((body) => JSON.stringify(body));
