import { createWebhookHandlerWith } from '../handler/create-webhook-handler-with';
import type { WebhookHandler } from '../handler/webhook-handler';
import type { WebhookHandlerOptions } from '../handler/webhook-handler-options';
import { matchNodeSecret } from './match-secret';

/**
 * A webhook receiver: verifies each delivery, deduplicates it on `X-SVC-Delivery` and calls the
 * handler of its event with the event narrowed to its name and a context (`deliveryId`,
 * `secretIndex`). Answers 200 for a processed, duplicate or ignored delivery (and for `ping`
 * without a handler), 401 for a bad signature, 400 for a malformed request, and 500 when a
 * handler throws, so that the sender retries. Options are checked here: a mistake throws a
 * `TypeError` at setup.
 *
 * `handle` serves Fetch runtimes; `toNodeListener`, `toExpressMiddleware` and
 * `toFastifyPlugin` adapt it to Node frameworks, and `receive` to any other.
 *
 * @example
 * ```ts
 * const webhooks = createWebhookHandler({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   on: {
 *     'receipt.created': async (event, { deliveryId }) => {
 *       await inventory.add(event.data.serial_number, deliveryId);
 *     },
 *   },
 * });
 * export const POST = webhooks.handle; // Next.js route handler
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  return createWebhookHandlerWith(matchNodeSecret, options);
}
