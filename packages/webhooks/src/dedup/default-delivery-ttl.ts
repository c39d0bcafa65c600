import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@boundbook/types';

/** Room past the retry schedule for the attempts' own time-outs, the sender's lag and clock drift. */
const MARGIN_SECONDS = 3600;

/**
 * How long the memory store remembers a processed delivery, in seconds: the sender's whole retry
 * schedule (the sum of `WEBHOOK_RETRY_DELAYS_SECONDS`, 99,360 s) plus an hour, 102,960 s. A
 * delivery processed but not acknowledged in time (the receiver took longer than 5 s) is retried
 * up to that long after; it is still recognised as a duplicate.
 *
 * @example
 * ```ts
 * createMemoryDeliveryStore({ ttlSeconds: DEFAULT_DELIVERY_TTL_SECONDS * 2 });
 * ```
 */
export const DEFAULT_DELIVERY_TTL_SECONDS: number =
  WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0) + MARGIN_SECONDS;
