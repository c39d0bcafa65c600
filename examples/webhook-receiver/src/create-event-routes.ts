import type { WebhookContext, WebhookEventHandlers } from '@fflkit/webhooks';
import type { FirearmLog, FirearmLogEntry } from './firearm-log';
import type { Inventory, ReceiptEvent } from './inventory';

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
 * The receiver's routing: one handler per event name, each applying the event to the inventory
 * (which keeps it right whatever order the deliveries come in) and writing what happened to the
 * firearm into the log, in the order the deliveries came. `ping` has no route:
 * `createWebhookHandler` answers it by itself.
 *
 * @example
 * ```ts
 * const webhooks = createWebhookHandler({ secret, on: createEventRoutes(createFirearmLog(), createInventory()) });
 * ```
 */
export function createEventRoutes(log: FirearmLog, inventory: Inventory): WebhookEventHandlers {
  const record = (event: ReceiptEvent, context: WebhookContext, summary: string): void => {
    const applied = inventory.apply(event);
    log.add(entryOf(event, context, applied ? summary : `${summary} (older than what is known: not applied)`));
  };
  return {
    'receipt.created': (event, context) => {
      const { manufacturer, model, serial_number, received_from } = event.data;
      record(event, context, `Acquired ${manufacturer} ${model} (${serial_number}) from ${received_from}`);
    },
    'receipt.updated': (event, context) => {
      const { manufacturer, model, serial_number } = event.data;
      record(event, context, `Corrected the record of ${manufacturer} ${model} (${serial_number})`);
    },
    'receipt.disposed': (event, context) => {
      const { manufacturer, model, serial_number, disposition } = event.data;
      // The contract types `disposition` as nullable on every receipt; a disposed one carries it.
      const recipient = disposition === null ? 'an unnamed recipient' : disposition.disposed_to;
      record(event, context, `Disposed of ${manufacturer} ${model} (${serial_number}) to ${recipient}`);
    },
    'receipt.deleted': (event, context) => {
      const { book, record: line, serial_number } = event.data;
      record(event, context, `Deleted record ${line} of book ${book} (${serial_number})`);
    },
  };
}
