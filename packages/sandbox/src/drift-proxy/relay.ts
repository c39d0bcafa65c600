import {
  Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

// One request relayed to another server and its answer relayed back, neither changed: the same
// method, path, headers (but those of the hop, and Host, which names the server relayed to) and
// body bytes each way, streamed as they come. A copy of both bodies is kept, up to a size, for
// the checks that run once the answer has ended. A server that cannot be reached is answered
// 502 in the contract's error shape (504 when it does not answer in time); a server that drops
// the connection without answering gets its caller's connection dropped too.

/** What a relay saw, for the checks: the request, and the answer as it was relayed. */
export interface Relayed {
  readonly method: string;
  /** The path and query as the caller sent them. */
  readonly url: string;
  readonly requestHeaders: IncomingHttpHeaders;
  /** The request's body; `undefined` past the size kept. */
  readonly requestBody: Buffer | undefined;
  readonly status: number;
  readonly responseHeaders: IncomingHttpHeaders;
  /** The answer's body, decoded from its content coding; `undefined` past the size kept or when it cannot be decoded. */
  readonly responseBody: Buffer | undefined;
}

/** Where and how to relay. */
export interface RelayTarget {
  /** The server the request goes to (its scheme, host and port). */
  readonly server: URL;
  /** The path and query sent to it, as they are: never normalised. */
  readonly path: string;
  /** The connections kept open to its server. */
  readonly agent: HttpAgent;
  /** What the server is, for the 502's message: `the service at https://...`. */
  readonly name: string;
  /** What to do when it cannot be reached, for the 502's message. */
  readonly hint: string;
}

/** The most bytes of a body kept for the checks: the contract's body limit and a little more. */
export const KEPT_BODY_BYTES = 8 * 1024 * 1024;

/** How long the server has to begin its answer. */
const ANSWER_TIMEOUT_MS = 60_000;

/** Headers of one hop, which a proxy neither forwards nor returns. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** Connections kept open to a server, for the relays to it. */
export function agentFor(url: URL): HttpAgent {
  const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64 };
  return url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * Relays `request` to `target` and its answer back through `response`; `onEnd` gets what was
 * seen once the answer has ended (not when the server could not be reached, nor when either
 * side dropped the connection).
 */
export function relay(
  request: IncomingMessage,
  response: ServerResponse,
  target: RelayTarget,
  onEnd: (relayed: Relayed) => void,
): void {
  const { server } = target;
  const send = server.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send({
    protocol: server.protocol,
    hostname: server.hostname.replace(/^\[|\]$/g, ''),
    port: server.port,
    path: target.path,
    method: request.method,
    agent: target.agent,
    headers: forwardedHeaders(request.rawHeaders, server.host),
    // The caller's headers, as it sent them; Node must not add its own.
    setHost: false,
  });
  let connected = false;
  upstream.on('socket', (socket: Socket) => {
    if (!socket.connecting) connected = true;
    else socket.once('connect', () => (connected = true));
  });
  upstream.setTimeout(ANSWER_TIMEOUT_MS, () => {
    upstream.destroy(Object.assign(new Error('no answer in time'), { code: 'ANSWER_TIMEOUT' }));
  });
  const sent = collector();
  request.on('data', (chunk: Buffer) => sent.add(chunk));
  request.pipe(upstream);
  // The caller went away: so does the request it made.
  response.on('close', () => {
    if (!response.writableFinished) upstream.destroy();
  });
  let answered = false;
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (answered) {
      // The server answered before it took the whole body (a 413): the answer goes on; the
      // rest of the body goes nowhere.
      request.unpipe(upstream);
      request.resume();
      return;
    }
    if (response.headersSent || response.destroyed) {
      response.destroy();
      return;
    }
    if (connected && error.code !== 'ANSWER_TIMEOUT') {
      // The server took the request and closed the connection without an answer: so does the proxy.
      response.destroy();
      return;
    }
    const status = error.code === 'ANSWER_TIMEOUT' ? 504 : 502;
    const reason =
      error.code === 'ANSWER_TIMEOUT'
        ? `it did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`
        : describeNetworkError(error);
    answerJson(response, status, {
      message: `The drift proxy could not reach ${target.name}: ${reason}. ${target.hint}`,
    });
  });
  upstream.on('response', (answer: IncomingMessage) => {
    answered = true;
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, returnedHeaders(answer.rawHeaders));
    const received = collector();
    answer.on('data', (chunk: Buffer) => received.add(chunk));
    answer.pipe(response);
    answer.on('error', () => response.destroy());
    answer.on('aborted', () => response.destroy());
    answer.on('end', () => {
      // The answer is on its way: the checks wait until the caller has it.
      setImmediate(() => {
        if (response.destroyed && !response.writableFinished) return;
        onEnd({
          method: request.method ?? 'GET',
          url: request.url ?? '/',
          requestHeaders: request.headers,
          requestBody: sent.bytes(),
          status: answer.statusCode ?? 0,
          responseHeaders: answer.headers,
          responseBody: decoded(received.bytes(), answer.headers['content-encoding']),
        });
      });
    });
  });
}

/** The caller's raw headers for the next hop: those of the hop left out, Host naming the server. */
function forwardedHeaders(raw: readonly string[], host: string): string[] {
  const headers = ['Host', host];
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    if (name === 'host' || HOP_HEADERS.has(name)) continue;
    headers.push(raw[index]!, raw[index + 1]!);
  }
  return headers;
}

/** The server's raw headers for the caller, in their order and case, those of the hop left out. */
function returnedHeaders(raw: readonly string[]): string[] {
  const headers: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    if (!HOP_HEADERS.has(raw[index]!.toLowerCase())) headers.push(raw[index]!, raw[index + 1]!);
  }
  return headers;
}

/** An answer in the contract's shape: JSON, its length told. */
export function answerJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : text);
}

/** Chunks kept up to {@link KEPT_BODY_BYTES}. */
function collector(): { add(chunk: Buffer): void; bytes(): Buffer | undefined } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk) {
      size += chunk.length;
      if (size <= KEPT_BODY_BYTES) chunks.push(chunk);
    },
    bytes: () => (size > KEPT_BODY_BYTES ? undefined : Buffer.concat(chunks, size)),
  };
}

/** A body decoded from its content coding, for the checks; the relayed bytes stay as they were. */
function decoded(body: Buffer | undefined, coding: string | undefined): Buffer | undefined {
  if (body === undefined || coding === undefined || body.length === 0) return body;
  try {
    switch (coding.trim().toLowerCase()) {
      case 'identity':
        return body;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body);
      case 'deflate':
        try {
          return inflateSync(body);
        } catch {
          return inflateRawSync(body);
        }
      case 'br':
        return brotliDecompressSync(body);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'its host cannot be reached';
    default:
      return error.message;
  }
}
