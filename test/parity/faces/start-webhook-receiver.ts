import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook request as the receiver got it. */
export interface ReceivedWebhook {
  /** The path it was sent to: `/ok`, `/fail` or `/redirect`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The exact body text, as signed. */
  readonly body: string;
}

/** A local endpoint for webhook deliveries: `/ok` answers 204, `/redirect` 302 to `/ok`, anything else 500. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:port`. */
  readonly origin: string;
  /** Every request so far, in the order they arrived. */
  readonly received: readonly ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * Starts a webhook receiver on a free port of 127.0.0.1. Both faces deliver to one of their own,
 * so each face's deliveries (and the failures of `/fail`) are real HTTP exchanges.
 *
 * @example
 * ```ts
 * const receiver = await startWebhookReceiver();
 * await logbook.webhooks.create({ url: `${receiver.origin}/ok`, events: ['*'] });
 * ```
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else response.writeHead(path === '/ok' ? 204 : 500).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}
