import type { WebhookContext, WebhookEventHandlers, WebhookEventOf } from '@boundbook/webhooks/web';

/** An event about one receipt: every event but the dashboard's `ping`. */
export type ReceiptEvent = WebhookEventOf<'receipt.created' | 'receipt.updated' | 'receipt.disposed' | 'receipt.deleted'>;

/** What the queue's consumer gets for each verified receipt event. */
export interface ReceiptEventMessage {
  /** `X-SVC-Delivery`: the same across the retries of one delivery. */
  readonly deliveryId: string;
  /** The verified delivery body, typed from the contract. */
  readonly event: ReceiptEvent;
}

/**
 * The part of a Cloudflare Queues producer binding (`Queue<ReceiptEventMessage>`) that the
 * receiver uses; a test passes any object with this `send`.
 */
export interface ReceiptEventQueue {
  send(message: ReceiptEventMessage): Promise<unknown>;
}

/**
 * One route per receipt event, each sending the verified event to `queue`. The service waits 5
 * seconds for an answer, so the Worker only queues; the consumer does the work, in its own time,
 * with the queue's retries. Deliveries come in any order, and so do these messages: the consumer
 * applies them as the webhooks README's patterns do (read the receipt's current state, or newest
 * event wins and a deletion is final).
 *
 * @example
 * ```ts
 * createWebhookHandler({ secret: env.BOUNDBOOK_WEBHOOK_SECRET, on: queueReceiptEvents(env.RECEIPT_EVENTS) });
 * ```
 */
export function queueReceiptEvents(queue: ReceiptEventQueue): WebhookEventHandlers {
  // A send that fails throws: the handler answers 500 and the service retries the delivery.
  const send = async (event: ReceiptEvent, { deliveryId }: WebhookContext): Promise<void> => {
    await queue.send({ deliveryId, event });
  };
  return { 'receipt.created': send, 'receipt.updated': send, 'receipt.disposed': send, 'receipt.deleted': send };
}
