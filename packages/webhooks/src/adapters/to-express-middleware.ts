import type { NodeRequestLike } from '../body/read-node-body';
import type { WebhookHandler } from '../handler/webhook-handler';
import { answerNodeRequest } from './answer-node-request';
import { type NodeResponseLike, writeNodeAnswer } from './write-node-answer';

/**
 * Express (4 or 5) middleware for a webhook handler. Mount it on its route before any JSON body
 * parser, or give the route `express.raw({ type: 'application/json' })`: it needs the raw body.
 * When `express.json()` has already parsed the body, the delivery is answered with a 500 whose
 * message (also given to `onError`) says so. A failure to write the answer goes to `next`.
 *
 * @example
 * ```ts
 * const app = express();
 * app.post('/webhooks', toExpressMiddleware(webhooks)); // before app.use(express.json())
 * app.use(express.json());
 * ```
 */
export function toExpressMiddleware(
  handler: WebhookHandler,
): (request: NodeRequestLike, response: NodeResponseLike, next: (error?: unknown) => void) => void {
  return (request, response, next) => {
    answerNodeRequest(handler, request).then((answer) => writeNodeAnswer(response, answer)).catch(next);
  };
}
