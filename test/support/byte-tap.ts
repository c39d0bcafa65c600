import { createHash } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The SHA-256 of what one exchange carried each way, as hex. */
export interface ExchangeHashes {
  readonly request: string;
  readonly response: string;
}

/** A running tap. */
export interface ByteTap {
  /** Its origin, to put where the server's was. */
  readonly url: string;
  /** What each exchange carried, by its `X-Exchange` header (requests without one are not kept). */
  readonly exchanges: ReadonlyMap<string, ExchangeHashes>;
  stop(): Promise<void>;
}

/**
 * A relay in front of the server at `target` that hashes each request body it takes in and each
 * answer body it gives out, for a test that proves something in front of it changed no byte. It
 * takes the `X-Exchange` header off, so that the server sees the request as the test's caller
 * would have sent it.
 */
export async function startByteTap(target: string): Promise<ByteTap> {
  const exchanges = new Map<string, ExchangeHashes>();
  const { hostname, port } = new URL(target);
  const server = createServer((request, response) => {
    const id = request.headers['x-exchange'] as string | undefined;
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, host: `${hostname}:${port}` };
    delete headers['x-exchange'];
    const sent = createHash('sha256');
    const onward = httpRequest({ hostname, port, path: request.url, method: request.method, headers }, (answer) => {
      const received = createHash('sha256');
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => received.update(chunk));
      answer.pipe(response);
      answer.on('end', () => {
        if (id !== undefined) exchanges.set(id, { request: sent.digest('hex'), response: received.digest('hex') });
      });
    });
    onward.on('error', () => response.destroy());
    request.on('data', (chunk: Buffer) => sent.update(chunk));
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
