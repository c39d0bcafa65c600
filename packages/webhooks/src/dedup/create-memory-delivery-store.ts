import { readClock } from '../options/read-clock';
import { readOptionsObject } from '../options/read-options-object';
import { readPositiveNumber } from '../options/read-positive-number';
import { DEFAULT_DELIVERY_TTL_SECONDS } from './default-delivery-ttl';
import type { DeliveryStore } from './delivery-store';

/** Options of `createMemoryDeliveryStore`. */
export interface MemoryDeliveryStoreOptions {
  /** Seconds a delivery id is remembered after its last claim or commit; `DEFAULT_DELIVERY_TTL_SECONDS` by default. */
  readonly ttlSeconds?: number;
  /** Most ids kept; past it the oldest are dropped first. 100,000 by default (about 20 MB). */
  readonly maxEntries?: number;
  /** The clock, in epoch milliseconds; `Date.now` by default. */
  readonly now?: () => number;
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
 * const store = createMemoryDeliveryStore({ maxEntries: 10_000 });
 * const webhooks = createWebhookHandler({ secret, store, on: { 'receipt.created': save } });
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
