import { type NodeRequestLike, readNodeBody } from '../body/read-node-body';
import { type WebhookAnswer, bodyTooLarge, methodNotAllowed, unreadableBody } from '../handler/webhook-answer';
import type { WebhookHandler } from '../handler/webhook-handler';

/**
 * The answer to a Node request: 405 unless POST; the body a parser already read when it is raw
 * (`express.raw()`, `express.text()`); a parsed body handed on as it is, which the handler
 * answers with a 500 that says to pass the raw body; otherwise the body read from the stream.
 *
 * @example
 * ```ts
 * const answer = await answerNodeRequest(webhooks, req);
 * ```
 */
export async function answerNodeRequest(handler: WebhookHandler, request: NodeRequestLike): Promise<WebhookAnswer> {
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
