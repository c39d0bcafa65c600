import { readRequestBody } from '../body/read-request-body';
import type { MatchSecret } from '../signature/match-secret';
import { createReceive } from './create-receive';
import { readHandlerOptions } from './read-handler-options';
import { type WebhookAnswer, bodyTooLarge, methodNotAllowed, unreadableBody } from './webhook-answer';
import type { WebhookHandler } from './webhook-handler';

/**
 * `createWebhookHandler` over a build's `matchSecret`: checks the options, then builds `receive`
 * and the Fetch `handle` on top of it.
 *
 * @example
 * ```ts
 * const webhooks = createWebhookHandlerWith(matchNodeSecret, { secret, on: {} });
 * ```
 */
export function createWebhookHandlerWith(matchSecret: MatchSecret, options: unknown): WebhookHandler {
  const settings = readHandlerOptions(options);
  const receive = createReceive(matchSecret, settings);
  const { maxBodyBytes } = settings;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') return toResponse(methodNotAllowed());
    let body: Uint8Array | 'too_large';
    try {
      body = await readRequestBody(request, maxBodyBytes);
    } catch {
      return toResponse(unreadableBody());
    }
    if (body === 'too_large') return toResponse(bodyTooLarge(maxBodyBytes));
    return toResponse(await receive({ payload: body, headers: request.headers }));
  };

  return { handle, receive, maxBodyBytes };
}

function toResponse(answer: WebhookAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
