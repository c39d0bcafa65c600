import type { WebhookHandler } from '../handler/webhook-handler';

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
    parser: (request: any, body: Uint8Array, done: (error: null, body: Uint8Array) => void) => void,
  ): unknown;
  post(path: string, handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<FastifyReplyLike>): unknown;
}

/** Options of `toFastifyPlugin`. */
export interface FastifyPluginOptions {
  /** Path of the route within the plugin's prefix; `/` by default. */
  readonly path?: string;
}

/**
 * A Fastify (4 or 5) plugin serving a webhook handler on POST `path` (under the `prefix` it is
 * registered with). Inside the plugin every body is kept as raw bytes, so the signature is
 * checked over what was sent; the plugin's encapsulation leaves JSON parsing of the rest of the
 * application as it was. Bodies past `maxBodyBytes` get Fastify's own 413.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(toFastifyPlugin(webhooks), { prefix: '/webhooks' });
 * ```
 */
export function toFastifyPlugin(handler: WebhookHandler, options: FastifyPluginOptions = {}): (instance: FastifyInstanceLike) => Promise<void> {
  const path = options.path ?? '/';
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: handler.maxBodyBytes }, (_request, body, done) => done(null, body));
    instance.post(path, async (request, reply) => {
      // A POST without a body (and so without a Content-Type) reaches here with none.
      const answer = await handler.receive({ payload: (request.body as Uint8Array | undefined) ?? new Uint8Array(0), headers: request.headers });
      return reply.code(answer.status).headers({ ...answer.headers }).send(answer.body);
    });
  };
}
