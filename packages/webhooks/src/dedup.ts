// Deduplication on X-SVC-Delivery: the `DeliveryStore` contract the handler claims, commits and
// releases ids in, and the bounded in-memory store it uses by default.
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@boundbook/types';
import { readClock, readOptionsObject, readPositiveNumber } from './options';

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
 * import { DEFAULT_DELIVERY_TTL_SECONDS, type DeliveryStore } from '@boundbook/webhooks';
 *
 * declare const redis: {
 *   set(key: string, value: string, options: { NX?: boolean; EX: number }): Promise<string | null>;
 *   get(key: string): Promise<string | null>;
 *   del(key: string): Promise<number>;
 * };
 *
 * export const redisStore: DeliveryStore = {
 *   async claim(id) {
 *     if (await redis.set(`delivery:${id}`, 'in_progress', { NX: true, EX: 300 })) return 'claimed';
 *     return (await redis.get(`delivery:${id}`)) === 'processed' ? 'processed' : 'in_progress';
 *   },
 *   async commit(id) {
 *     await redis.set(`delivery:${id}`, 'processed', { EX: DEFAULT_DELIVERY_TTL_SECONDS });
 *   },
 *   async release(id) {
 *     await redis.del(`delivery:${id}`);
 *   },
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

/** Options of `createMemoryDeliveryStore`. An option given as `undefined` is an option not given. */
export interface MemoryDeliveryStoreOptions {
  /** Seconds a delivery id is remembered after its last claim or commit; `DEFAULT_DELIVERY_TTL_SECONDS` by default. */
  readonly ttlSeconds?: number | undefined;
  /** Most ids kept; past it the oldest are dropped first. 100,000 by default (about 20 MB). */
  readonly maxEntries?: number | undefined;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
}

/** The in-memory `DeliveryStore`, with the count of ids it holds. */
export interface MemoryDeliveryStore extends DeliveryStore {
  /** Ids held now, expired ones swept first. */
  readonly size: number;
}

interface Entry {
  readonly processed: boolean;
  readonly expiresAt: number;
}

/** Room past the retry schedule for the attempts' own time-outs, the sender's lag and clock drift. */
const MARGIN_SECONDS = 3600;

/**
 * How long the memory store remembers a processed delivery, in seconds: the sender's whole retry
 * schedule (the sum of `WEBHOOK_RETRY_DELAYS_SECONDS`, 99,360 s) plus an hour, 102,960 s. A
 * delivery processed but not acknowledged in time (the receiver took longer than 5 s) is retried
 * up to that long after; it is still recognised as a duplicate.
 */
export const DEFAULT_DELIVERY_TTL_SECONDS: number =
  WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0) + MARGIN_SECONDS;

const OPTIONS = ['ttlSeconds', 'maxEntries', 'now'] as const;
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * A `DeliveryStore` in this process's memory: the default of `createWebhookHandler`. Memory is
 * bounded: expired ids are swept on every claim (no timer), and past `maxEntries` the oldest ids
 * are dropped. It deduplicates within one process; receivers running several processes share a
 * store of their own (see `DeliveryStore`).
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryStore } from '@boundbook/webhooks';
 *
 * let now = Date.parse('2025-03-14T15:00:00Z');
 * const store = createMemoryDeliveryStore({ ttlSeconds: 60, now: () => now });
 * store.claim('6f1c...'); // 'claimed'
 * store.commit('6f1c...');
 * store.claim('6f1c...'); // 'processed': a retry of a delivery already processed
 * now += 61_000;
 * store.size; // 0: forgotten after ttlSeconds
 * ```
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): MemoryDeliveryStore {
  const record = readOptionsObject(options, OPTIONS, 'createMemoryDeliveryStore');
  const ttlMs = (readPositiveNumber(record['ttlSeconds'], 'ttlSeconds', 'createMemoryDeliveryStore') ?? DEFAULT_DELIVERY_TTL_SECONDS) * 1000;
  const maxEntries = readPositiveNumber(record['maxEntries'], 'maxEntries', 'createMemoryDeliveryStore', true) ?? DEFAULT_MAX_ENTRIES;
  const now = readClock(record['now'], 'createMemoryDeliveryStore');
  // Insertion order is expiry order: every write moves its id to the end with the latest expiry.
  const entries = new Map<string, Entry>();

  const sweep = (nowMs: number): void => {
    for (const [id, entry] of entries) {
      if (entry.expiresAt > nowMs) return;
      entries.delete(id);
    }
  };
  const put = (id: string, processed: boolean, nowMs: number): void => {
    entries.delete(id);
    entries.set(id, { processed, expiresAt: nowMs + ttlMs });
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) return;
      entries.delete(oldest);
    }
  };

  return {
    claim(deliveryId) {
      const nowMs = now();
      sweep(nowMs);
      const entry = entries.get(deliveryId);
      if (entry) return entry.processed ? 'processed' : 'in_progress';
      put(deliveryId, false, nowMs);
      return 'claimed';
    },
    commit(deliveryId) {
      put(deliveryId, true, now());
    },
    release(deliveryId) {
      if (entries.get(deliveryId)?.processed === false) entries.delete(deliveryId);
    },
    get size() {
      sweep(now());
      return entries.size;
    },
  };
}
