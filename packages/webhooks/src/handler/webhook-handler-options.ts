import type { WebhookEventName, WebhookEventOf } from '@boundbook/types';
import type { DeliveryStore } from '../dedup/delivery-store';
import type { UnknownWebhookEvent } from '../events/unknown-webhook-event';
import type { WebhookSecret } from '../signature/read-secrets';

/** What a handler learns about the delivery beside its event. */
export interface WebhookContext {
  /** `X-SVC-Delivery`: the same across the retries of one delivery. */
  readonly deliveryId: string;
  /** Index of the secret that matched in the `secret` option (0 for a single secret). */
  readonly secretIndex: number;
}

/** One handler per event name, each given the event narrowed to its name. */
export type WebhookEventHandlers = {
  readonly [Name in WebhookEventName]?: (event: WebhookEventOf<Name>, context: WebhookContext) => unknown;
};

/** Where an error answered with a 500 came from. */
export interface WebhookErrorInfo {
  readonly outcome: 'handler_failed' | 'store_failed' | 'setup_error';
  readonly deliveryId: string | undefined;
  readonly event: string | undefined;
}

/** Options of `createWebhookHandler`. */
export interface WebhookHandlerOptions {
  /** The endpoint's signing secret, or several while rotating (`[newSecret, oldSecret]`). */
  readonly secret: WebhookSecret;
  /**
   * Handlers by event name. An event without a handler is acknowledged (200, `ignored`); `ping`
   * is answered without one. A handler that throws gives 500, so the sender retries.
   */
  readonly on: WebhookEventHandlers;
  /** Handler of events newer than this package; without it they are acknowledged (200, `ignored`). */
  readonly onUnknownEvent?: (event: UnknownWebhookEvent, context: WebhookContext) => unknown;
  /** Where deliveries are deduplicated: a memory store by default, `false` for none. */
  readonly store?: DeliveryStore | false;
  /** Refuse events whose timestamp is further than this from now (400). Off by default; see `constructEvent`. */
  readonly toleranceSeconds?: number;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: () => number;
  /** Largest body read, in bytes; a larger one is answered 413. 1 MiB by default. */
  readonly maxBodyBytes?: number;
  /** Told of every error answered with a 500; `console.error` by default. */
  readonly onError?: (error: unknown, info: WebhookErrorInfo) => void;
}
