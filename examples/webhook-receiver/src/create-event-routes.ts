import type { WebhookContext, WebhookEventHandlers, WebhookEventOf } from '@boundbook/webhooks';
import type { FirearmLog, FirearmLogEntry } from './firearm-log';

type ReceiptEvent = WebhookEventOf<'receipt.created' | 'receipt.updated' | 'receipt.disposed' | 'receipt.deleted'>;

/** The log entry of one receipt event; `summary` is the one part that differs by event. */
function entryOf(event: ReceiptEvent, context: WebhookContext, summary: string): FirearmLogEntry {
  const receipt = event.data;
  return {
    deliveryId: context.deliveryId,
    event: event.event,
    receiptId: receipt.id,
    book: receipt.book,
    record: receipt.record,
    serialNumber: receipt.serial_number,
    summary,
  };
}

/**
 * The receiver's routing: one handler per event name, each writing what happened to the firearm
 * into the log. `ping` has no route: `createWebhookHandler` answers it by itself.
 *
 * @example
 * ```ts
 * const webhooks = createWebhookHandler({ secret, on: createEventRoutes(createFirearmLog()) });
 * ```
 */
export function createEventRoutes(log: FirearmLog): WebhookEventHandlers {
  return {
    'receipt.created': (event, context) => {
      const { manufacturer, model, serial_number, received_from } = event.data;
      log.add(entryOf(event, context, `Acquired ${manufacturer} ${model} (${serial_number}) from ${received_from}`));
    },
    'receipt.updated': (event, context) => {
      const { manufacturer, model, serial_number } = event.data;
      log.add(entryOf(event, context, `Corrected the record of ${manufacturer} ${model} (${serial_number})`));
    },
    'receipt.disposed': (event, context) => {
      const { manufacturer, model, serial_number, disposition } = event.data;
      // The contract types `disposition` as nullable on every receipt; a disposed one carries it.
      const recipient = disposition === null ? 'an unnamed recipient' : disposition.disposed_to;
      log.add(entryOf(event, context, `Disposed of ${manufacturer} ${model} (${serial_number}) to ${recipient}`));
    },
    'receipt.deleted': (event, context) => {
      const { book, record, serial_number } = event.data;
      log.add(entryOf(event, context, `Deleted record ${record} of book ${book} (${serial_number})`));
    },
  };
}
