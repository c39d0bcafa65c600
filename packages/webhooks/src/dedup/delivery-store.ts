/**
 * What `claim` found: `claimed` (this call may process the delivery), `processed` (an earlier
 * attempt succeeded: a duplicate) or `in_progress` (another request holds the claim).
 */
export type DeliveryClaim = 'claimed' | 'processed' | 'in_progress';

/**
 * Where the handler records deliveries by their `X-SVC-Delivery` id, so that a retried delivery
 * is processed once. The handler claims an id before calling the event's handler, commits it
 * when the handler succeeds and releases it when the handler throws, so the sender's retry is
 * processed. Each method may answer synchronously or with a promise.
 *
 * A shared store (Redis, a database) lets several receiver processes deduplicate together; its
 * claims should expire (a lease of a few minutes) so that a receiver that dies mid-delivery does
 * not hold a claim forever, and its committed ids should be kept at least
 * `DEFAULT_DELIVERY_TTL_SECONDS`.
 *
 * @example
 * ```ts
 * const store: DeliveryStore = {
 *   async claim(id) {
 *     if (await redis.set(`delivery:${id}`, 'in_progress', { NX: true, EX: 300 })) return 'claimed';
 *     return (await redis.get(`delivery:${id}`)) === 'processed' ? 'processed' : 'in_progress';
 *   },
 *   async commit(id) { await redis.set(`delivery:${id}`, 'processed', { EX: DEFAULT_DELIVERY_TTL_SECONDS }); },
 *   async release(id) { await redis.del(`delivery:${id}`); },
 * };
 * ```
 */
export interface DeliveryStore {
  /** Claims the delivery id before its handler runs. */
  claim(deliveryId: string): DeliveryClaim | Promise<DeliveryClaim>;
  /** Records the delivery as processed, after its handler succeeded. */
  commit(deliveryId: string): void | Promise<void>;
  /** Drops the claim after its handler threw, so that the sender's retry is processed. */
  release(deliveryId: string): void | Promise<void>;
}
