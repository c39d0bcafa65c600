import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/rate-limit/rate-limiter';
import { FakeClock } from '../support/fake-clock';

/** Takes `count` slots; resolves with the clock time at which each one was granted. */
function takeSlots(limiter: RateLimiter, clock: FakeClock, count: number, signal?: AbortSignal): Array<Promise<number>> {
  return Array.from({ length: count }, () => {
    const slot = limiter.acquire(signal);
    return slot === undefined ? Promise.resolve(clock.now()) : slot.then(() => clock.now());
  });
}

describe('RateLimiter', () => {
  it('acquire() grants `limit` slots at once, without a promise', () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(60, clock);
    for (let i = 0; i < 60; i++) expect(limiter.acquire()).toBeUndefined();
    expect(clock.pending).toBe(0);
  });

  it('the next request waits until the oldest of the window is a minute old, in the order asked', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter(2, clock);
    limiter.acquire();
    await clock.advance(10_000);
    limiter.acquire();
    const [third, fourth] = takeSlots(limiter, clock, 2);
    await clock.advance(60_000);
    expect(await third).toBe(start + 60_000);
    expect(await fourth).toBe(start + 70_000);
  });

  it('pause() holds back every request until the given time', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(60, clock);
    limiter.pause(clock.now() + 10_000);
    const [granted] = takeSlots(limiter, clock, 1);
    await clock.advance(9_999);
    let done = false;
    void granted?.then(() => (done = true));
    await clock.advance(0);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(await granted).toBe(clock.now());
  });

  it('a pause that comes while a request waits holds it back too', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter(1, clock);
    limiter.acquire();
    const [second] = takeSlots(limiter, clock, 1);
    await clock.advance(30_000);
    limiter.pause(start + 90_000);
    await clock.advance(60_000);
    expect(await second).toBe(start + 90_000);
  });

  it('a waiting request rejects with the reason when its signal aborts', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, clock);
    limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(clock.pending).toBe(0);
  });

  it('an aborted request gives its reservation back, and the window still counts the requests sent', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new RateLimiter(1, clock);
    limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(aborted).rejects.toThrow('cancelled');
    const [next] = takeSlots(limiter, clock, 1);
    await clock.advance(60_000);
    expect(await next).toBe(start + 60_000);
  });

  it('a request whose signal is already aborted rejects when it would wait', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, clock);
    limiter.acquire();
    await expect(limiter.acquire(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
