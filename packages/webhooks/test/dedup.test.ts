import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@boundbook/types';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_DELIVERY_TTL_SECONDS, createMemoryDeliveryStore } from '../src/index';

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2025-03-14T15:04:05Z')) {
  const clock = { ms: start, now: () => clock.ms, advance: (seconds: number) => (clock.ms += seconds * 1000) };
  return clock;
}

describe('DEFAULT_DELIVERY_TTL_SECONDS', () => {
  it('outlasts the sender\'s whole retry schedule by an hour', () => {
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

  it('claim(id) returns claimed again after release(id), so the sender\'s retry is processed', () => {
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
    ['options that are not an object', 'fast', 'options must be an object ({ ttlSeconds, maxEntries, now }); got a string'],
    ['an unknown option', { ttl: 60 }, 'unknown option "ttl"; the options are ttlSeconds, maxEntries, now'],
    ['a time to live of zero', { ttlSeconds: 0 }, 'ttlSeconds must be a positive number; got a number'],
    ['a fractional maxEntries', { maxEntries: 1.5 }, 'maxEntries must be a positive whole number; got a number'],
    ['a clock that is not a function', { now: new Date() }, 'now must be a function returning epoch milliseconds, like Date.now; got an object'],
  ])('throws a TypeError for %s', (_, options, message) => {
    // @ts-expect-error: wrong options
    expect(() => createMemoryDeliveryStore(options)).toThrow(new TypeError(`[@boundbook/webhooks] createMemoryDeliveryStore: ${message}`));
  });
});
