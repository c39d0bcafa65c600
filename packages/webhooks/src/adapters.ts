// The handler adapted to Node frameworks (Fetch runtimes use `handler.handle` directly). Each
// adapter gets the raw body right for its framework and answers with the handler's answers; the
// `*Like` interfaces are the parts of each framework's objects that are used, so Express 4 and 5
// and Fastify 4 and 5 fit them as they are and the package needs no framework's types.
import { type WebhookAnswer, bodyTooLarge, methodNotAllowed, unreadableBody } from './answers';
import { type NodeRequestLike, readNodeBody } from './body';
import type { WebhookHandler } from './handler';

/** The part of Node's `http.ServerResponse` (and Express's response) that the adapters use. */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk: string): unknown;
}

/** The part of a Fastify (4 or 5) request that the plugin uses. */
export interface FastifyRequestLike {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: unknown;
}

/** The part of a Fastify reply that the plugin uses. */
export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload: string): FastifyReplyLike;
}

/** The part of a Fastify instance that the plugin uses. */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    // biome-ignore lint/suspicious/noExplicitAny: Fastify's own request type, which this package does not import
    parser: (request: any, body: Uint8Array, done: (error: null, body: Uint8Array) => void) => void,
  ): unknown;
  post(
    path: string,
    handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<FastifyReplyLike>,
  ): unknown;
}

/** Options of `toFastifyPlugin`. An option given as `undefined` is an option not given. */
export interface FastifyPluginOptions {
  /** Path of the route within the plugin's prefix; `/` by default. */
  readonly path?: string | undefined;
}

/**
 * A Node `http` request listener for a webhook handler. It reads the raw body itself, so no body
 * parser is needed; a body already parsed by one (Next.js pages API routes parse by default) is
 * answered with a 500 saying to pass the raw body. The returned promise never rejects.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createWebhookHandler, toNodeListener } from '@fflkit/webhooks';
 *
 * const webhooks = createWebhookHandler({
 *   secret: process.env['WEBHOOK_SECRET']!,
 *   on: { 'receipt.created': (event) => console.log(event.data.serial_number) },
 * });
 * createServer(toNodeListener(webhooks)).listen(3000); // POST / answers 200, 401 or 400
 * ```
 */
export function toNodeListener(
  handler: WebhookHandler,
): (request: NodeRequestLike, response: NodeResponseLike) => Promise<void> {
  return async (request, response) => {
    writeNodeAnswer(response, await answerNodeRequest(handler, request));
  };
}

/**
 * Express (4 or 5) middleware for a webhook handler. Mount it on its route before any JSON body
 * parser, or give the route `express.raw({ type: 'application/json' })`: it needs the raw body.
 * When `express.json()` has already parsed the body, the delivery is answered with a 500 whose
 * message (also given to `onError`) says so. A failure to write the answer goes to `next`.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createWebhookHandler, toExpressMiddleware } from '@fflkit/webhooks';
 *
 * const webhooks = createWebhookHandler({ secret: process.env['WEBHOOK_SECRET']!, on: {} });
 * const app = express();
 * app.post('/webhooks', toExpressMiddleware(webhooks)); // before express.json()
 * app.use(express.json()); // the rest of the app
 * ```
 */
export function toExpressMiddleware(
  handler: WebhookHandler,
): (request: NodeRequestLike, response: NodeResponseLike, next: (error?: unknown) => void) => void {
  return (request, response, next) => {
    answerNodeRequest(handler, request)
      .then((answer) => writeNodeAnswer(response, answer))
      .catch(next);
  };
}

/**
 * A Fastify (4 or 5) plugin serving a webhook handler on POST `path` (under the `prefix` it is
 * registered with). Inside the plugin every body is kept as raw bytes, so the signature is
 * checked over what was sent; the plugin's encapsulation leaves JSON parsing of the rest of the
 * application as it was. Bodies past `maxBodyBytes` get Fastify's own 413.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createWebhookHandler, toFastifyPlugin } from '@fflkit/webhooks';
 *
 * const webhooks = createWebhookHandler({ secret: process.env['WEBHOOK_SECRET']!, on: {} });
 * const app = Fastify();
 * await app.register(toFastifyPlugin(webhooks), { prefix: '/webhooks' }); // POST /webhooks
 * ```
 */
export function toFastifyPlugin(
  handler: WebhookHandler,
  options: FastifyPluginOptions = {},
): (instance: FastifyInstanceLike) => Promise<void> {
  const path = options.path ?? '/';
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: handler.maxBodyBytes }, (_request, body, done) =>
      done(null, body),
    );
    instance.post(path, async (request, reply) => {
      // A POST without a body (and so without a Content-Type) reaches here with none.
      const answer = await handler.receive({
        payload: (request.body as Uint8Array | undefined) ?? new Uint8Array(0),
        headers: request.headers,
      });
      return reply
        .code(answer.status)
        .headers({ ...answer.headers })
        .send(answer.body);
    });
  };
}

/**
 * The answer to a Node request: 405 unless POST; the body a parser already read when it is raw
 * (`express.raw()`, `express.text()`); a parsed body handed on as it is, which the handler
 * answers with a 500 that says to pass the raw body; otherwise the body read from the stream.
 */
async function answerNodeRequest(handler: WebhookHandler, request: NodeRequestLike): Promise<WebhookAnswer> {
  if (request.method !== 'POST') return methodNotAllowed();
  const { headers } = request;
  if (request.readableEnded) return handler.receive({ payload: request.body as Uint8Array, headers });
  let body: Uint8Array | 'too_large';
  try {
    body = await readNodeBody(request, handler.maxBodyBytes);
  } catch {
    return unreadableBody();
  }
  if (body === 'too_large') {
    const answer = bodyTooLarge(handler.maxBodyBytes);
    // The rest of the body is left unread: the connection cannot carry another request.
    return { ...answer, headers: { ...answer.headers, connection: 'close' } };
  }
  return handler.receive({ payload: body, headers });
}

function writeNodeAnswer(response: NodeResponseLike, answer: WebhookAnswer): void {
  response.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.end(answer.body);
}
