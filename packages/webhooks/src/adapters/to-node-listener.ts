import type { NodeRequestLike } from '../body/read-node-body';
import type { WebhookHandler } from '../handler/webhook-handler';
import { answerNodeRequest } from './answer-node-request';
import { type NodeResponseLike, writeNodeAnswer } from './write-node-answer';

/**
 * A Node `http` request listener for a webhook handler. It reads the raw body itself, so no body
 * parser is needed; a body already parsed by one (Next.js pages API routes parse by default) is
 * answered with a 500 saying to pass the raw body. The returned promise never rejects.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(webhooks)).listen(3000);
 * ```
 */
export function toNodeListener(handler: WebhookHandler): (request: NodeRequestLike, response: NodeResponseLike) => Promise<void> {
  return async (request, response) => {
    writeNodeAnswer(response, await answerNodeRequest(handler, request));
  };
}
