import { createWebhookHandler, type WebhookHandler } from '@fflkit/webhooks/web';
import { queueReceiptEvents, type ReceiptEventQueue } from './receipt-event-queue';

/** The Worker's bindings, as `wrangler.json` declares them. */
export interface Env {
  /**
   * The endpoint's signing secret, `whsec_...`, as `POST /webhooks` answered it: a Worker secret
   * (`wrangler secret put FFLKIT_WEBHOOK_SECRET`), or `.dev.vars` for `wrangler dev`.
   */
  readonly FFLKIT_WEBHOOK_SECRET: string;
  /** The queue each verified receipt event is sent to. */
  readonly RECEIPT_EVENTS: ReceiptEventQueue;
}

/** A Workers module's default export: a Fetch handler. */
export interface ReceiverWorker {
  fetch(request: Request, env: Env): Promise<Response>;
}

/** Where the service delivers: the URL registered with `POST /webhooks` ends in this path. */
export const WEBHOOK_PATH = '/webhooks';

/**
 * A Fetch handler that receives the service's webhooks at `/webhooks` and answers as
 * `@fflkit/webhooks` does: 200 once a receipt event is queued (or a `ping` answered, or a
 * retried delivery recognised), 401 for a bad signature, 405 to all but POST, 500 when the queue
 * fails, so that the service retries. Anything else is 404.
 *
 * @example
 * ```ts
 * // src/worker.ts, the module wrangler deploys
 * export default createReceiverWorker();
 * ```
 */
export function createReceiverWorker(): ReceiverWorker {
  // The handler holds the memory store that recognises retried deliveries, so it is made once per
  // isolate, at the first request: a Worker's bindings arrive with the request, not at import.
  let webhooks: WebhookHandler | undefined;
  return {
    async fetch(request, env) {
      if (new URL(request.url).pathname !== WEBHOOK_PATH) {
        return Response.json({ message: `Not found: deliveries are received at ${WEBHOOK_PATH}.` }, { status: 404 });
      }
      // A missing or misspelt secret throws a TypeError that names it; workerd answers 500 and
      // logs it, and the service retries the delivery until the secret is set.
      webhooks ??= createWebhookHandler({
        secret: env.FFLKIT_WEBHOOK_SECRET,
        on: queueReceiptEvents(env.RECEIPT_EVENTS),
      });
      return webhooks.handle(request);
    },
  };
}
