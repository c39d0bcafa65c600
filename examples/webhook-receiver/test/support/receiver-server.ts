import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server whose request listener can be swapped, as a redeploy would. */
export interface ReceiverServer {
  /** Origin of the server, such as `http://127.0.0.1:53124`. */
  readonly origin: string;
  /** Serves every later request with `listener`. */
  use(listener: RequestListener): void;
  close(): Promise<void>;
}

/**
 * Listens on a free port before any receiver is made: the endpoint has to be registered with the
 * receiver's URL to learn the secret the receiver is made with. Until `use` is called, requests
 * are answered 503, which the sandbox retries like any failure.
 *
 * @example
 * ```ts
 * const server = await startReceiverServer();
 * const { secret } = await logbook.webhooks.create({ url: `${server.origin}/webhooks`, events: ['*'] });
 * server.use(createNodeReceiver({ secret, log }));
 * ```
 */
export async function startReceiverServer(): Promise<ReceiverServer> {
  let current: RequestListener = (_request, response) => {
    response.writeHead(503).end();
  };
  const server = createServer((request, response) => current(request, response));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    use(listener) {
      current = listener;
    },
    async close() {
      // The sandbox keeps its delivery connections alive; without this, close() would wait for them.
      server.closeAllConnections();
      await new Promise<void>((closed, failed) => server.close((error) => (error ? failed(error) : closed())));
    },
  };
}
