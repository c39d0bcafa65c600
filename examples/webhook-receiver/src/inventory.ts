import type { WebhookEventOf } from '@fflkit/webhooks';

/** An event about one receipt. */
export type ReceiptEvent = WebhookEventOf<
  'receipt.created' | 'receipt.updated' | 'receipt.disposed' | 'receipt.deleted'
>;

/** What the receiver knows of one firearm, from the newest event it applied. */
export interface InventoryItem {
  readonly receiptId: number;
  readonly serialNumber: string;
  readonly book: string;
  readonly record: number;
  readonly status: 'on_hand' | 'disposed' | 'deleted';
  /** The `timestamp` of the event this state comes from. */
  readonly asOf: string;
}

/** The receiver's view of the licensee's firearms, right whatever order the deliveries come in. */
export interface Inventory {
  /** Applies an event when it is newer than what is known of its receipt; answers whether it did. */
  apply(event: ReceiptEvent): boolean;
  /** What is known of a receipt, deleted ones included. */
  get(receiptId: number): InventoryItem | undefined;
  /** The firearms on hand, by receipt id. */
  onHand(): InventoryItem[];
}

/**
 * An in-memory inventory kept from webhook events under any order: the service does not promise
 * the order of deliveries, so `receipt.deleted` may come before `receipt.created`. Per receipt it
 * keeps the newest event applied (by `timestamp`, which the sandbox keeps to the millisecond and
 * strictly increasing within an account) and applies an event only when it is newer; a deletion
 * is final, since a deleted receipt never comes back. A real receiver keeps this in its database
 * and reads and writes it in one transaction, as deliveries run concurrently.
 *
 * @example
 * ```ts
 * const inventory = createInventory();
 * inventory.apply(deletedEvent); // true
 * inventory.apply(createdEvent); // false: older than the deletion, no ghost item
 * inventory.onHand(); // []
 * ```
 */
export function createInventory(): Inventory {
  const items = new Map<number, InventoryItem>();
  return {
    apply(event) {
      const known = items.get(event.data.id);
      if (known?.status === 'deleted') return false;
      if (known !== undefined && Date.parse(known.asOf) >= Date.parse(event.timestamp)) return false;
      const { id, serial_number, book, record, status } = event.data;
      items.set(id, {
        receiptId: id,
        serialNumber: serial_number,
        book,
        record,
        status: event.event === 'receipt.deleted' ? 'deleted' : status,
        asOf: event.timestamp,
      });
      return true;
    },
    get: (receiptId) => items.get(receiptId),
    onHand: () =>
      [...items.values()].filter((item) => item.status === 'on_hand').sort((a, b) => a.receiptId - b.receiptId),
  };
}
