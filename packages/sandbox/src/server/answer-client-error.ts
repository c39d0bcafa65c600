import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const BAD_REQUEST_BODY = JSON.stringify({
  message: 'The request is malformed: check its request line and headers (such as Host).',
});
const REQUEST_TIMEOUT_BODY = JSON.stringify({ message: 'The request took too long to arrive.' });

/**
 * Answers a request that Node's HTTP parser refused before Hapi saw it (a malformed request
 * line or header, or bytes left over after a body sent without a length; Node 24 also refuses an
 * invalid Host) in the contract's error shape, where Node and Hapi would send a bare
 * `400 Bad Request` without a body, then closes the connection. When an earlier request on the
 * same connection is still being answered, it waits for that answer to finish first.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Node keeps the response being written on this connection here (its own clientError
  // handler reads the same property).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once('close', () => answerClientError(error, socket));
    return;
  }
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const body = timedOut ? REQUEST_TIMEOUT_BODY : BAD_REQUEST_BODY;
  socket.end(
    `HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
