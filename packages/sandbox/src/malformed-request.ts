import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Requests that Node's HTTP parser refuses, or that HTTP itself does not allow (an HTTP/1.1
// request without Host): each is answered in the contract's error shape, `{"message"}` JSON,
// and its connection closed at once, where Node would send a bare 400 or, for a body it cannot
// read (an invalid chunk size, a Transfer-Encoding other than chunked), nothing at all.

/**
 * Options of the sandbox's Node listener: an HTTP/1.1 request without Host reaches the server,
 * which answers it with {@link MISSING_HOST_MESSAGE}, rather than Node's bare 400.
 */
export const LISTENER_OPTIONS: ServerOptions = { requireHostHeader: false };

/** The `message` of the 400 to an HTTP/1.1 request without a Host header (RFC 9112, 3.2). */
export const MISSING_HOST_MESSAGE =
  'The request has no Host header, which HTTP/1.1 requires: send the host and port you called, such as Host: 127.0.0.1:4010.';

/** Whether a request is HTTP/1.1 (or later) without a Host header, which HTTP does not allow. */
export function lacksHost(request: IncomingMessage): boolean {
  return request.headers.host === undefined && request.httpVersionMajor === 1 && request.httpVersionMinor >= 1;
}

/**
 * The status and `message` for what the parser refused, by its code: a request that took too
 * long (408), headers over Node's limit (431), a body whose encoding cannot be read, and any
 * other malformed request line or header (400).
 */
function refusalOf(error: Error & { code?: string }): { status: string; message: string } {
  const code = error.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: '408 Request Timeout', message: 'The request took too long to arrive.' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: '431 Request Header Fields Too Large',
      message: 'The request headers are too large (16 KB in all at most): send fewer or shorter headers.',
    };
  }
  if (code === 'HPE_INVALID_TRANSFER_ENCODING') {
    return {
      status: '400 Bad Request',
      message:
        'The request has a Transfer-Encoding other than chunked, which no server can read: send the body with Transfer-Encoding: chunked or with Content-Length.',
    };
  }
  if (code.includes('CHUNK')) {
    return {
      status: '400 Bad Request',
      message: `The request body is not valid chunked encoding (${reasonOf(error)}): send each chunk as its size in hexadecimal, CRLF, the bytes and CRLF, or send the body with Content-Length.`,
    };
  }
  return {
    status: '400 Bad Request',
    message: `The request is malformed (${reasonOf(error)}): check its request line and headers (such as Host).`,
  };
}

/** The parser's reason in a few words: `Invalid character in chunk size`. */
function reasonOf(error: Error): string {
  return error.message.replace(/^Parse Error:\s*/, '').replace(/\.$/, '') || 'unreadable';
}

/**
 * Node's `clientError` listener for the sandbox: answers a request that Node's HTTP parser
 * refused in the contract's error shape, then closes the connection. A request whose body could
 * not be read was already handed to the server, unanswered: it is answered now, in its place.
 * When an earlier request on the same connection is still being answered, its answer is let
 * finish first; one whose answer had begun cannot be answered, so its connection is closed.
 */
export function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  // Node keeps the response being written on this connection here (its own clientError
  // handler reads the same property).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    const ownBody = inFlight.req?.complete === false;
    if (ownBody && inFlight.headersSent) {
      socket.destroy();
      return;
    }
    if (!ownBody) {
      inFlight.once('close', () => answerMalformedRequest(error, socket));
      return;
    }
  }
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = refusalOf(error);
  const body = JSON.stringify({ message });
  // Closed as soon as the answer is written, whatever the client does: a request handed to the
  // server then stops waiting for its body, which ends with the connection.
  socket.end(
    `HTTP/1.1 ${status}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}
