// Deduplication of deliveries: the key the handler gives each one (the SHA-256 digest of its body
// by default), the `DeliveryStore` contract it claims, commits and releases keys in, and the
// bounded in-memory store it uses by default.
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@fflkit/types';
import { readClock, readOptionsObject, readPositiveNumber } from './options';

/**
 * What the handler deduplicates a delivery by, its `deduplicateBy` option: `body` (the default),
 * the bytes that are signed, so a replay under a new `X-SVC-Delivery` is recognised; or
 * `delivery-id`, the `X-SVC-Delivery` header, which the signature does not cover.
 */
export type DeduplicateBy = 'body' | 'delivery-id';

/**
 * The lowercase hex SHA-256 digest of text (as UTF-8) or bytes, which the handler keys each
 * delivery on: node:crypto in the Node build, Web Crypto in the web build.
 */
export type Sha256Hex = (payload: string | Uint8Array) => string | Promise<string>;

/**
 * What `claim` found: `claimed` (this call may process the delivery), `processed` (an earlier
 * attempt succeeded: a duplicate) or `in_progress` (another request holds the claim).
 */
export type DeliveryClaim = 'claimed' | 'processed' | 'in_progress';

/**
 * Where the handler records deliveries, so that each is processed once: a retry of the delivery,
 * or a replay of it under another `X-SVC-Delivery`, is recognised. Each delivery comes as a key,
 * 64 lowercase hex digits: the SHA-256 digest of its exact body bytes by default, computed once
 * the signature has matched (or of its `X-SVC-Delivery` id, with `deduplicateBy: 'delivery-id'`).
 * The handler claims the key before calling the event's handler, commits it when the handler
 * succeeds and releases it when the handler throws, so the sender's retry is processed. Each
 * method may answer synchronously or with a promise.
 *
 * A shared store (Redis, a database) lets several receiver processes deduplicate together; its
 * claims should expire (a lease of a few minutes) so that a receiver that dies mid-delivery does
 * not hold a claim forever, and its committed keys should be kept at least
 * `DEFAULT_DELIVERY_TTL_SECONDS`.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIVERY_TTL_SECONDS, type DeliveryStore } from '@fflkit/webhooks';
 *
 * declare const redis: {
 *   set(key: string, value: string, options: { NX?: boolean; EX: number }): Promise<string | null>;
 *   get(key: string): Promise<string | null>;
 *   del(key: string): Promise<number>;
 * };
 *
 * export const redisStore: DeliveryStore = {
 *   async claim(key) {
 *     if (await redis.set(`delivery:${key}`, 'in_progress', { NX: true, EX: 300 })) return 'claimed';
 *     return (await redis.get(`delivery:${key}`)) === 'processed' ? 'processed' : 'in_progress';
 *   },
 *   async commit(key) {
 *     await redis.set(`delivery:${key}`, 'processed', { EX: DEFAULT_DELIVERY_TTL_SECONDS });
 *   },
 *   async release(key) {
 *     await redis.del(`delivery:${key}`);
 *   },
 * };
 * ```
 */
export interface DeliveryStore {
  /** Claims the delivery's key before its handler runs. */
  claim(key: string): DeliveryClaim | Promise<DeliveryClaim>;
  /** Records the delivery as processed, after its handler succeeded. */
  commit(key: string): void | Promise<void>;
  /** Drops the claim after its handler threw, so that the sender's retry is processed. */
  release(key: string): void | Promise<void>;
}

/** Options of `createMemoryDeliveryStore`. An option given as `undefined` is an option not given. */
export interface MemoryDeliveryStoreOptions {
  /** Seconds a key is remembered after its last claim or commit; `DEFAULT_DELIVERY_TTL_SECONDS` by default. */
  readonly ttlSeconds?: number | undefined;
  /**
   * Most keys kept; past it the oldest are dropped first. 100,000 by default: about 24 MB of
   * heap with the handler's keys, 64-character digests.
   */
  readonly maxEntries?: number | undefined;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
}

/** The in-memory `DeliveryStore`, with the count of keys it holds. */
export interface MemoryDeliveryStore extends DeliveryStore {
  /** Keys held now, expired ones swept first. */
  readonly size: number;
}

/**
 * A key held by the memory store, linked to the keys written just before and after it: the list
 * runs from the oldest write to the newest, which is also expiry order, so that expired and
 * surplus keys are dropped from its front without a walk.
 */
interface Entry {
  readonly key: string;
  readonly processed: boolean;
  readonly expiresAt: number;
  older: Entry | undefined;
  newer: Entry | undefined;
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
 * bounded: expired keys are swept on every claim (no timer), and past `maxEntries` the oldest
 * keys are dropped; each call costs the same however many keys it holds. It deduplicates within
 * one process; receivers running several processes share a store of their own (see
 * `DeliveryStore`).
 *
 * @example
 * ```ts
 * import { createMemoryDeliveryStore } from '@fflkit/webhooks';
 *
 * let now = Date.parse('2025-03-14T15:00:00Z');
 * const store = createMemoryDeliveryStore({ ttlSeconds: 60, now: () => now });
 * const key = '3f0a9c...'; // the handler's key of a delivery: the SHA-256 digest of its body
 * store.claim(key); // 'claimed'
 * store.commit(key);
 * store.claim(key); // 'processed': a retry (or a replay) of a delivery already processed
 * now += 61_000;
 * store.size; // 0: forgotten after ttlSeconds
 * ```
 */
export function createMemoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): MemoryDeliveryStore {
  const record = readOptionsObject(options, OPTIONS, 'createMemoryDeliveryStore');
  const ttlMs =
    (readPositiveNumber(record['ttlSeconds'], 'ttlSeconds', 'createMemoryDeliveryStore') ??
      DEFAULT_DELIVERY_TTL_SECONDS) * 1000;
  const maxEntries =
    readPositiveNumber(record['maxEntries'], 'maxEntries', 'createMemoryDeliveryStore', true) ?? DEFAULT_MAX_ENTRIES;
  const now = readClock(record['now'], 'createMemoryDeliveryStore');
  // The Map finds a key; the list orders keys by their last write. Every write moves its key to
  // the newest end with the latest expiry, so the oldest end expires first. Each call touches a
  // few entries at either end and never walks the Map: a walk from the start of a Map passes over
  // the slots its deleted front entries leave until it is rehashed, so a store that started one
  // per call cost O(n) per call once it dropped keys.
  const entries = new Map<string, Entry>();
  let oldest: Entry | undefined;
  let newest: Entry | undefined;

  const remove = (entry: Entry): void => {
    entries.delete(entry.key);
    if (entry.older) entry.older.newer = entry.newer;
    else oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else newest = entry.older;
  };
  const sweep = (nowMs: number): void => {
    while (oldest !== undefined && oldest.expiresAt <= nowMs) remove(oldest);
  };
  const put = (key: string, processed: boolean, nowMs: number): void => {
    const previous = entries.get(key);
    if (previous) remove(previous);
    const entry: Entry = { key, processed, expiresAt: nowMs + ttlMs, older: newest, newer: undefined };
    if (newest) newest.newer = entry;
    else oldest = entry;
    newest = entry;
    entries.set(key, entry);
    if (entries.size > maxEntries) remove(oldest as Entry);
  };
  /**
   * The entry of a key unless it has expired. An expired entry can outlive the sweep when the
   * clock went back between two writes (the list is then not quite in expiry order).
   */
  const live = (key: string, nowMs: number): Entry | undefined => {
    const entry = entries.get(key);
    return entry !== undefined && entry.expiresAt > nowMs ? entry : undefined;
  };

  return {
    claim(key) {
      const nowMs = now();
      sweep(nowMs);
      const entry = live(key, nowMs);
      if (entry) return entry.processed ? 'processed' : 'in_progress';
      put(key, false, nowMs);
      return 'claimed';
    },
    commit(key) {
      put(key, true, now());
    },
    release(key) {
      const entry = entries.get(key);
      if (entry?.processed === false) remove(entry);
    },
    get size() {
      sweep(now());
      return entries.size;
    },
  };
}
