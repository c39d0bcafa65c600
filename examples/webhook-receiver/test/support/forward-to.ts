import { request, type RequestListener } from 'node:http';

/**
 * A request listener that passes each request on to `origin`, and its answer back, byte for byte:
 * the signature covers the exact body, so the receiver behind it verifies deliveries as if they
 * came straight from the sandbox. Answers 502 when `origin` cannot be reached.
 *
 * @example
 * ```ts
 * server.use(forwardTo('http://127.0.0.1:53125'));
 * ```
 */
export function forwardTo(origin: string): RequestListener {
  return (incoming, outgoing) => {
    const forwarded = request(
      new URL(incoming.url ?? '/', origin),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  };
}
