import type { WebhookContext, WebhookEventHandlers, WebhookEventOf } from '@fflkit/webhooks/web';

/** An event about one receipt: every event but the dashboard's `ping`. */
export type ReceiptEvent = WebhookEventOf<
  'receipt.created' | 'receipt.updated' | 'receipt.disposed' | 'receipt.deleted'
>;

/**
 * A receipt event as queued: the verified delivery body without the receipt's `documents`. A
 * queue message holds at most 128 KB, and a receipt's documents have no limit, while the rest of
 * a receipt is bounded (each text at most 255 characters), so that every message fits. A consumer
 * that needs the documents reads the receipt through the API.
 */
export type QueuedReceiptEvent = WithoutDocuments<ReceiptEvent>;

/** Each event of a union, its `data` without `documents`. */
type WithoutDocuments<Event> = Event extends { readonly data: infer Data }
  ? Omit<Event, 'data'> & { readonly data: Omit<Data, 'documents'> }
  : never;

/** What the queue's consumer gets for each verified receipt event. */
export interface ReceiptEventMessage {
  /** `X-SVC-Delivery`: the same across the retries of one delivery. */
  readonly deliveryId: string;
  /** The verified delivery body, typed from the contract, without the receipt's documents. */
  readonly event: QueuedReceiptEvent;
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
 * createWebhookHandler({ secret: env.FFLKIT_WEBHOOK_SECRET, on: queueReceiptEvents(env.RECEIPT_EVENTS) });
 * ```
 */
export function queueReceiptEvents(queue: ReceiptEventQueue): WebhookEventHandlers {
  // A send that fails throws: the handler answers 500 and the service retries the delivery.
  const send = async (event: ReceiptEvent, { deliveryId }: WebhookContext): Promise<void> => {
    const { documents: _documents, ...data } = event.data;
    await queue.send({ deliveryId, event: { ...event, data } as QueuedReceiptEvent });
  };
  return { 'receipt.created': send, 'receipt.updated': send, 'receipt.disposed': send, 'receipt.deleted': send };
}
