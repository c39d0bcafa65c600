import type { Readable } from 'node:stream';
import type { SandboxRequest, SandboxResponse } from '@fflkit/sandbox-core';
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { BodySerializer } from './body-serializer';

// A Hapi request as the core's transport-free request, and the core's answer as a Hapi response:
// what the server's handlers do around each call of the core.

/** Bytes of an oversized body the server reads and discards so that the client gets its 413. */
const DRAIN_LIMIT = 16 * 1_048_576;

/**
 * Reads a request body of at most `maxBytes` bytes. A body without a declared length (chunked)
 * that grows past the limit is read to its end and discarded instead of destroyed, so the
 * client, still sending, receives the 413 rather than a reset connection; a body that goes on
 * past 16 MB is cut off.
 */
export async function readBody(stream: Readable, maxBytes: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_LIMIT) {
      stream.destroy();
      break;
    }
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? 'too-large' : Buffer.concat(chunks, size);
}

/**
 * Turns a Hapi request and its raw body into the core's transport-free request: upper-case
 * method, path as sent, raw query string, lower-case headers and the body as UTF-8 text
 * (`undefined` when the request has none).
 */
export function toSandboxRequest(request: Request, payload: Buffer | undefined, texts: RequestTexts): SandboxRequest {
  const body = payload !== undefined && payload.length > 0 ? payload.toString('utf8') : undefined;
  // The raw request target, not `request.url`: Hapi cannot build a URL when the Host header is
  // malformed, and the core needs only the path and the query string.
  const target = request.raw.req.url ?? '/';
  const mark = target.indexOf('?');
  return {
    method: UPPER_CASE_METHODS.get(request.method) ?? request.method.toUpperCase(),
    path: texts.path(mark === -1 ? target : target.slice(0, mark)),
    query: mark === -1 ? '' : texts.query(target.slice(mark + 1)),
    headers: toHeaders(request.raw.req.headers),
    body,
  };
}

/** The methods Hapi names in lower case, as the core takes them, each one string. */
const UPPER_CASE_METHODS: ReadonlyMap<string, string> = new Map(
  ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'].map((method) => [method.toLowerCase(), method]),
);

/**
 * The texts of a request the core keeps in its request log, each given as the string of the
 * request before when it repeats it: a client polls the same path again and again, and a new
 * string for each request would be one more object for every scavenge to copy for as long as the
 * log keeps the entry (the reads benchmark).
 */
export interface RequestTexts {
  readonly path: (text: string) => string;
  readonly query: (text: string) => string;
}

/** The texts of one server's requests, each starting from none kept. */
export function requestTexts(): RequestTexts {
  return { path: lastOf(''), query: lastOf('') };
}

function lastOf(first: string): (text: string) => string {
  let last = first;
  return (text) => {
    if (text !== last) last = text;
    return last;
  };
}

function toHeaders(incoming: NodeJS.Dict<string | string[]>): Record<string, string | undefined> {
  // Node gives every request header as one string but Set-Cookie, always a list: without one,
  // the headers are handed over as they are, not copied (the reads benchmark). The core only reads them.
  if (incoming['set-cookie'] === undefined) return incoming as Record<string, string | undefined>;
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(incoming)) {
    const value = incoming[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Turns the core's answer into a Hapi response: its status and headers, and its body as the
 * bytes of its JSON text (no body at all when the core gives none, as for a 204). Bytes rather
 * than a string spare Hapi measuring the text's UTF-8 length for `Content-Length`, and spare
 * the socket encoding it (the reads benchmark).
 */
export function replyWith(h: ResponseToolkit, answer: SandboxResponse, serialize: BodySerializer): ResponseObject {
  const { body } = answer;
  const response =
    body === undefined
      ? h.response()
      : typeof body === 'string'
        ? h.response(Buffer.from(body))
        : h.response(serialize(body)).type('application/json; charset=utf-8');
  response.code(answer.status);
  const { headers } = answer;
  for (const name in headers) response.header(name, headers[name]!);
  return response;
}
