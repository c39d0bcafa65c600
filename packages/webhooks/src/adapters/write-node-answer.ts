import type { WebhookAnswer } from '../handler/webhook-answer';

/** The part of Node's `http.ServerResponse` (and Express's response) that the adapters use. */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk: string): unknown;
}

/**
 * Writes an answer to a Node response: status, headers, body.
 *
 * @example
 * ```ts
 * writeNodeAnswer(res, await answerNodeRequest(webhooks, req));
 * ```
 */
export function writeNodeAnswer(response: NodeResponseLike, answer: WebhookAnswer): void {
  response.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.end(answer.body);
}
