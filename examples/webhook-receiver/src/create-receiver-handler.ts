import {
  createMemoryDeliveryStore,
  createWebhookHandler,
  type DeliveryStore,
  type WebhookHandler,
} from '@fflkit/webhooks';
import { createEventRoutes } from './create-event-routes';
import type { FirearmLog } from './firearm-log';
import { createInventory, type Inventory } from './inventory';

/** Options of both receivers. */
export interface ReceiverOptions {
  /** The endpoint's signing secret, `whsec_...`, as `POST /webhooks` answered it. */
  readonly secret: string;
  /** Where processed deliveries are written. */
  readonly log: FirearmLog;
  /** The firearms, as the events applied in any order leave them; a fresh one by default. */
  readonly inventory?: Inventory;
  /** Path of the webhook route; `/webhooks` by default. */
  readonly path?: string;
  /** Where delivery ids are remembered; a fresh memory store by default. */
  readonly store?: DeliveryStore;
}

/** The default path of the webhook route. */
export const WEBHOOK_PATH = '/webhooks';

/**
 * The one webhook handler behind both receivers: verifies `X-SVC-Signature`, drops deliveries
 * already processed, and routes each event to {@link createEventRoutes}.
 *
 * @example
 * ```ts
 * const webhooks = createReceiverHandler({ secret: process.env.FFLKIT_WEBHOOK_SECRET!, log });
 * ```
 */
export function createReceiverHandler(options: ReceiverOptions): WebhookHandler {
  return createWebhookHandler({
    secret: options.secret,
    on: createEventRoutes(options.log, options.inventory ?? createInventory()),
    // The service retries a delivery until it gets a 2xx, and may send one again after an answer
    // lost on the way back: the store makes each delivery reach the log once. One process
    // keeps it in memory; receivers behind a load balancer share one (see DeliveryStore).
    store: options.store ?? createMemoryDeliveryStore({ maxEntries: 10_000 }),
  });
}
