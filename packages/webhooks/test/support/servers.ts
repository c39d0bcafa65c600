import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express5 from 'express';
import express4 from 'express4';
import Fastify5 from 'fastify';
import Fastify4 from 'fastify4';
import { type WebhookHandler, toExpressMiddleware, toFastifyPlugin, toNodeListener } from '../../src/index';

/** A receiver listening on 127.0.0.1, port 0; `url` is its webhook endpoint. */
export interface Receiver {
  readonly url: string;
  readonly origin: string;
  close(): Promise<void>;
}

/** Path of the webhook route on every receiver. */
export const WEBHOOK_PATH = '/webhooks';

async function listen(server: Server): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${WEBHOOK_PATH}`,
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * `handler.handle` behind a Node server that turns each request into a Fetch `Request` with a
 * streamed body, as @hono/node-server and Next.js do.
 */
export function startFetchReceiver(handler: WebhookHandler): Promise<Receiver> {
  return listen(
    createServer(async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      const answer = await handler.handle(
        new Request(url, {
          method: request.method ?? 'GET',
          headers: toFetchHeaders(request),
          ...(hasBody ? { body: Readable.toWeb(request) as ReadableStream, duplex: 'half' } : {}),
        } as RequestInit),
      );
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    }),
  );
}

function toFetchHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of Array.isArray(value) ? value : [value ?? '']) headers.append(name, item);
  }
  return headers;
}

/** `toNodeListener` as a plain `http.createServer` listener, serving every path. */
export function startNodeReceiver(handler: WebhookHandler): Promise<Receiver> {
  return listen(createServer(toNodeListener(handler)));
}

/** The Express majors the middleware is tested on. */
export const EXPRESS_VERSIONS = [
  { name: 'Express 5', express: express5 },
  { name: 'Express 4', express: express4 },
] as const;

/**
 * `toExpressMiddleware` on POST /webhooks of an Express app whose other routes parse JSON, with
 * `before` mounted ahead of the webhook route (to reproduce setup mistakes).
 */
export function startExpressReceiver(
  express: typeof express5,
  handler: WebhookHandler,
  before?: (app: ReturnType<typeof express5>) => void,
): Promise<Receiver> {
  const app = express();
  before?.(app);
  app.post(WEBHOOK_PATH, toExpressMiddleware(handler));
  app.use(express.json());
  app.post('/echo', (request, response) => {
    response.json({ parsed: request.body });
  });
  app.use((error: Error, _request: unknown, response: ReturnType<typeof express5>['response'], _next: unknown) => {
    response.status(500).json({ message: error.message, from: 'express error handler' });
  });
  return listen(createServer(app));
}

/** The Fastify majors the plugin is tested on. */
export const FASTIFY_VERSIONS = [
  { name: 'Fastify 5', start: (handler: WebhookHandler) => startFastify5(handler) },
  { name: 'Fastify 4', start: (handler: WebhookHandler) => startFastify4(handler) },
] as const;

/** `toFastifyPlugin` registered under /webhooks of a Fastify 5 app whose other routes parse JSON. */
async function startFastify5(handler: WebhookHandler): Promise<Receiver> {
  const app = Fastify5({ bodyLimit: 4096 });
  await app.register(toFastifyPlugin(handler), { prefix: WEBHOOK_PATH });
  app.post('/echo', async (request) => ({ parsed: request.body }));
  return listenFastify(app);
}

/** The same on Fastify 4. */
async function startFastify4(handler: WebhookHandler): Promise<Receiver> {
  const app = Fastify4({ bodyLimit: 4096 });
  await app.register(toFastifyPlugin(handler), { prefix: WEBHOOK_PATH });
  app.post('/echo', async (request) => ({ parsed: request.body }));
  return listenFastify(app);
}

async function listenFastify(app: {
  listen(options: { port: number; host: string }): Promise<string>;
  close(): Promise<unknown>;
}): Promise<Receiver> {
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${origin}${WEBHOOK_PATH}`, origin, close: async () => void (await app.close()) };
}
