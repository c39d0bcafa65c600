import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@fflkit/types';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_DELIVERY_TTL_SECONDS, createMemoryDeliveryStore } from '../src/index';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2025-03-14T15:04:05Z')) {
  const clock = { ms: start, now: () => clock.ms, advance: (seconds: number) => (clock.ms += seconds * 1000) };
  return clock;
}

describe('DEFAULT_DELIVERY_TTL_SECONDS', () => {
  it("outlasts the sender's whole retry schedule by an hour", () => {
    const schedule = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(schedule).toBe(99_360);
    expect(DEFAULT_DELIVERY_TTL_SECONDS).toBe(schedule + 3600);
  });
});

describe('createMemoryDeliveryStore(options)', () => {
  it('claim(id) returns claimed once, then in_progress until the claim is committed or released', () => {
    const store = createMemoryDeliveryStore();
    expect(store.claim('a')).toBe('claimed');
    expect(store.claim('a')).toBe('in_progress');
    expect(store.claim('b')).toBe('claimed');
  });

  it('claim(id) returns processed after commit(id): a retried delivery is a duplicate', () => {
    const store = createMemoryDeliveryStore();
    store.claim('a');
    store.commit('a');
    expect(store.claim('a')).toBe('processed');
  });

  it("claim(id) returns claimed again after release(id), so the sender's retry is processed", () => {
    const store = createMemoryDeliveryStore();
    store.claim('a');
    store.release('a');
    expect(store.claim('a')).toBe('claimed');
  });

  it('release(id) leaves a committed delivery committed and ignores unknown ids', () => {
    const store = createMemoryDeliveryStore();
    store.claim('a');
    store.commit('a');
    store.release('a');
    store.release('never-claimed');
    expect(store.claim('a')).toBe('processed');
    expect(store.size).toBe(1);
  });

  it('remembers a committed delivery for the whole retry schedule by default, and forgets it after', () => {
    const clock = manualClock();
    const store = createMemoryDeliveryStore({ now: clock.now });
    store.claim('a');
    store.commit('a');
    clock.advance(WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0));
    expect(store.claim('a')).toBe('processed');
    clock.advance(DEFAULT_DELIVERY_TTL_SECONDS);
    expect(store.claim('a')).toBe('claimed');
  });

  it('counts the time to live from the commit, not from the claim', () => {
    const clock = manualClock();
    const store = createMemoryDeliveryStore({ ttlSeconds: 60, now: clock.now });
    store.claim('a');
    clock.advance(50);
    store.commit('a');
    clock.advance(50);
    expect(store.claim('a')).toBe('processed');
  });

  it('sweeps expired ids on claim, so memory stays bounded without a timer', () => {
    const clock = manualClock();
    const store = createMemoryDeliveryStore({ ttlSeconds: 60, now: clock.now });
    for (let index = 0; index < 100; index += 1) {
      store.claim(`old-${index}`);
      store.commit(`old-${index}`);
    }
    clock.advance(30);
    store.claim('newer');
    clock.advance(31);
    expect(store.size).toBe(1);
    store.claim('newest');
    expect(store.size).toBe(2);
  });

  it('drops the oldest ids past maxEntries', () => {
    const store = createMemoryDeliveryStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) {
      store.claim(id);
      store.commit(id);
    }
    expect(store.size).toBe(3);
    expect(store.claim('b')).toBe('processed');
    expect(store.claim('a')).toBe('claimed');
  });

  it('forgets an expired id even when a newer write holds an earlier expiry (the clock went back)', () => {
    const clock = manualClock();
    const store = createMemoryDeliveryStore({ ttlSeconds: 60, now: clock.now });
    store.claim('first');
    clock.advance(-30);
    store.claim('second');
    clock.advance(61);
    // 'second' was claimed at an earlier moment than 'first', so it expires first, though it is
    // the newer write.
    expect(store.claim('second')).toBe('claimed');
    expect(store.claim('first')).toBe('in_progress');
  });

  it('costs a few Map operations per call and never walks the Map, over a million deliveries', () => {
    const counts = { walks: 0, operations: 0 };
    /** A Map that counts its lookups and writes, and every walk started over it. */
    class CountingMap<K, V> extends Map<K, V> {
      override get(key: K): V | undefined {
        counts.operations += 1;
        return super.get(key);
      }
      override set(key: K, value: V): this {
        counts.operations += 1;
        return super.set(key, value);
      }
      override delete(key: K): boolean {
        counts.operations += 1;
        return super.delete(key);
      }
      override has(key: K): boolean {
        counts.operations += 1;
        return super.has(key);
      }
      override keys(): MapIterator<K> {
        counts.walks += 1;
        return super.keys();
      }
      override values(): MapIterator<V> {
        counts.walks += 1;
        return super.values();
      }
      override entries(): MapIterator<[K, V]> {
        counts.walks += 1;
        return super.entries();
      }
      override forEach(callback: (value: V, key: K, map: Map<K, V>) => void): void {
        counts.walks += 1;
        super.forEach(callback);
      }
      override [Symbol.iterator](): MapIterator<[K, V]> {
        counts.walks += 1;
        return super[Symbol.iterator]();
      }
    }
    const clock = manualClock();
    vi.stubGlobal('Map', CountingMap);
    let store: ReturnType<typeof createMemoryDeliveryStore>;
    try {
      store = createMemoryDeliveryStore({ ttlSeconds: 60, now: clock.now });
    } finally {
      vi.unstubAllGlobals();
    }
    // Half a million deliveries a millisecond apart: ids expire 60 s (60,000 deliveries) after
    // their commit. Then half a million at one instant: past maxEntries, the oldest are dropped.
    for (let index = 0; index < 500_000; index += 1) {
      clock.ms += 1;
      store.claim(`expiring-${index}`);
      store.commit(`expiring-${index}`);
    }
    expect(store.size).toBe(60_000);
    for (let index = 0; index < 500_000; index += 1) {
      store.claim(`dropped-${index}`);
      store.commit(`dropped-${index}`);
    }
    expect(store.size).toBe(100_000);
    expect(counts.walks).toBe(0);
    // A claim and a commit: two lookups, a move to the newest end, and a drop from the oldest.
    expect(counts.operations).toBeLessThanOrEqual(1_000_000 * 8);
    expect(store.claim('dropped-499999')).toBe('processed');
    expect(store.claim('dropped-400000')).toBe('processed');
    expect(store.claim('dropped-399999')).toBe('claimed');
    expect(store.claim('expiring-499999')).toBe('claimed');
    // A million counted deliveries: about 2.5 s alone, past the default time-out when loaded.
  }, 30_000);

  it('reads options given as undefined as not given: the default time to live, on Date.now', () => {
    vi.useFakeTimers({ now: Date.parse('2025-03-14T15:04:05Z') });
    try {
      const store = createMemoryDeliveryStore({ ttlSeconds: undefined, maxEntries: undefined, now: undefined });
      store.claim('a');
      store.commit('a');
      vi.advanceTimersByTime(DEFAULT_DELIVERY_TTL_SECONDS * 1000 - 1);
      expect(store.claim('a')).toBe('processed');
      vi.advanceTimersByTime(1);
      expect(store.claim('a')).toBe('claimed');
      expect(createMemoryDeliveryStore(undefined).claim('a')).toBe('claimed');
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [
      'options that are not an object',
      'fast',
      'options must be an object ({ ttlSeconds, maxEntries, now }); got a string',
    ],
    ['an unknown option', { ttl: 60 }, 'unknown option "ttl"; the options are ttlSeconds, maxEntries, now'],
    ['a time to live of zero', { ttlSeconds: 0 }, 'ttlSeconds must be a positive number; got a number'],
    ['a fractional maxEntries', { maxEntries: 1.5 }, 'maxEntries must be a positive whole number; got a number'],
    [
      'a clock that is not a function',
      { now: new Date() },
      'now must be a function returning epoch milliseconds, like Date.now; got an object',
    ],
  ])('throws a TypeError for %s', (_, options, message) => {
    // @ts-expect-error: wrong options
    expect(() => createMemoryDeliveryStore(options)).toThrow(
      new TypeError(`[@fflkit/webhooks] createMemoryDeliveryStore: ${message}`),
    );
  });
});
