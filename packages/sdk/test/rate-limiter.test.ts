import { QueueTimeoutError, RateLimitError, type Wait } from '@fflkit/sdk';
import { receiptResource } from '@fflkit/test-fixtures';
import { describe, expect, it, vi } from 'vitest';
import { createRateLimiter, sharedRateLimiter } from '../src/rate-limiter';
import type { Limiter } from '../src/rate-limiter';
import { FakeClock } from './support/fake-clock';
import { json } from './support/stub-fetch';
import { BASE_URL, testClient } from './support/test-client';

/** Takes `count` slots; resolves with the clock time at which each one was granted. */
function takeSlots(limiter: Limiter, clock: FakeClock, count: number, signal?: AbortSignal): Array<Promise<number>> {
  return Array.from({ length: count }, () => {
    const slot = limiter.acquire(signal);
    return slot === undefined ? Promise.resolve(clock.now()) : slot.then(() => clock.now());
  });
}

describe('createRateLimiter(limit, clock)', () => {
  it('acquire() grants `limit` slots at once, without a promise', () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(60, clock);
    for (let i = 0; i < 60; i++) expect(limiter.acquire()).toBeUndefined();
    expect(clock.pending).toBe(0);
  });

  it('the next request waits until the oldest of the window is a minute old, in the order asked', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = createRateLimiter(2, clock);
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
    const limiter = createRateLimiter(60, clock);
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
    const limiter = createRateLimiter(1, clock);
    limiter.acquire();
    const [second] = takeSlots(limiter, clock, 1);
    await clock.advance(30_000);
    limiter.pause(start + 90_000);
    await clock.advance(60_000);
    expect(await second).toBe(start + 90_000);
  });

  it('a waiting request rejects with the reason when its signal aborts', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(1, clock);
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
    const limiter = createRateLimiter(1, clock);
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
    const limiter = createRateLimiter(1, clock);
    limiter.acquire();
    await expect(limiter.acquire(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});

describe('sharedRateLimiter(token, perMinute, clock)', () => {
  it('returns the same limiter for the same token, limit and clock', () => {
    const clock = new FakeClock();
    expect(sharedRateLimiter('token-a', 60, clock)).toBe(sharedRateLimiter('token-a', 60, clock));
  });

  it('returns another limiter for another token, limit or clock', () => {
    const clock = new FakeClock();
    const limiter = sharedRateLimiter('token-b', 60, clock);
    expect(sharedRateLimiter('token-c', 60, clock)).not.toBe(limiter);
    expect(sharedRateLimiter('token-b', 120, clock)).not.toBe(limiter);
    expect(sharedRateLimiter('token-b', 60, new FakeClock())).not.toBe(limiter);
  });
});

const ok = () => json(200, { data: receiptResource() });

describe('the rate limiter of clients', () => {
  it('sends 60 requests per minute per token by default and holds the 61st, saying so once on the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { logbook, clock, calls } = testClient([ok()], { onWait: undefined });
      const start = clock.now();
      const all = Array.from({ length: 62 }, () => logbook.receipts.get(1042));
      await clock.advance(0);
      expect(calls).toHaveLength(60);
      expect(warn.mock.calls).toEqual([
        [
          `[@fflkit/sdk] GET ${BASE_URL}/receipts/1042 waits 60000 ms: the token's requests per minute are spent (once per client; in unit tests against a mock pass rateLimit: false: the mock enforces the limit itself; see onWait and maxQueueWait)`,
        ],
      ]);
      await clock.advance(60_000);
      await Promise.all(all);
      expect(calls).toHaveLength(62);
      expect(clock.now()).toBe(start + 60_000);
    } finally {
      warn.mockRestore();
    }
  });

  it('tells onWait of every wait, with its reason and length, instead of the console', async () => {
    const warn = vi.spyOn(console, 'warn');
    const waits: Wait[] = [];
    const { logbook, clock } = testClient(
      [
        ok(),
        json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '10' }),
        json(503, { message: 'Down.' }),
        ok(),
      ],
      {
        rateLimit: { perMinute: 3 },
        onWait: (wait) => waits.push(wait),
      },
    );
    await logbook.books.list();
    await clock.settle(logbook.books.list());
    // The 429 pauses the token's queue for 10 s; the 503 backs off 1 s; the window then holds the
    // fourth request until a minute after the first.
    expect(waits).toEqual([
      { reason: 'retry-after', ms: 10_000, method: 'GET', url: `${BASE_URL}/books` },
      { reason: 'retry', ms: 1000, method: 'GET', url: `${BASE_URL}/books` },
      { reason: 'rate-limit', ms: 49_000, method: 'GET', url: `${BASE_URL}/books` },
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("reports a 429's Retry-After as such with the limiter off too", async () => {
    const waits: Wait[] = [];
    const { logbook, clock } = testClient(
      [json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '2' }), ok()],
      { rateLimit: false, onWait: (wait) => waits.push(wait) },
    );
    await clock.settle(logbook.books.list());
    expect(waits.map(({ reason, ms }) => [reason, ms])).toEqual([['retry-after', 2000]]);
  });

  it('with maxQueueWait, rejects a call the limiter would hold longer at once, sending nothing and keeping no slot', async () => {
    const { logbook, clock, calls } = testClient([ok()], {
      rateLimit: { perMinute: 2 },
      maxQueueWait: 5000,
      onWait: () => undefined,
    });
    await logbook.books.list();
    await logbook.books.list();
    const error = await logbook.books.list().catch((error: unknown) => error);
    expect(error).toBeInstanceOf(QueueTimeoutError);
    expect((error as Error).message).toBe(
      `GET ${BASE_URL}/books: the limiter would hold it 60000 ms, past maxQueueWait (5000): the token's requests per minute are spent (in unit tests against a mock pass rateLimit: false: the mock enforces the limit itself; else raise maxQueueWait)`,
    );
    expect(calls).toHaveLength(2);
    // Within the bound: the first slot frees 4 s from then, not after the refused call's turn.
    await clock.advance(56_000);
    const held = logbook.books.list();
    await clock.advance(4000);
    await held;
    expect(calls).toHaveLength(3);
  });

  it("bounds a 429's pause by maxQueueWait for the calls it holds", async () => {
    const clock = new FakeClock();
    const paused = testClient([json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '30' })], {
      clock,
      token: 'bounded',
      maxRetries: 0,
      onWait: () => undefined,
    });
    const sibling = testClient([ok()], { clock, token: 'bounded', maxQueueWait: 10_000, onWait: () => undefined });
    await expect(paused.logbook.books.list()).rejects.toBeInstanceOf(RateLimitError);
    await expect(sibling.logbook.books.list()).rejects.toThrow(
      "the limiter would hold it 30000 ms, past maxQueueWait (10000): a 429 paused the token's calls",
    );
    expect(sibling.calls).toHaveLength(0);
  });

  it.each([-1, Number.NaN])('refuses maxQueueWait: %d with a RangeError', (maxQueueWait) => {
    expect(() => testClient([ok()], { maxQueueWait })).toThrow(
      `maxQueueWait must be a number from 0, not ${maxQueueWait}`,
    );
  });

  it('is shared by every client holding the same token', async () => {
    const clock = new FakeClock();
    const first = testClient([ok()], { clock, token: 'shared-token', rateLimit: { perMinute: 2 } });
    const second = testClient([ok()], { clock, token: 'shared-token', rateLimit: { perMinute: 2 } });
    const other = testClient([ok()], { clock, token: 'other-token', rateLimit: { perMinute: 2 } });
    await first.logbook.receipts.get(1);
    await second.logbook.receipts.get(1);
    await other.logbook.receipts.get(1);
    const held = second.logbook.receipts.get(1);
    await clock.advance(59_999);
    expect(second.calls).toHaveLength(1);
    await clock.advance(1);
    await held;
    expect(second.calls).toHaveLength(2);
  });

  it("a 429 pauses the token's whole queue until Retry-After, other clients included", async () => {
    const clock = new FakeClock();
    const limited = testClient([json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '10' }), ok()], {
      clock,
      token: 'paused',
    });
    const sibling = testClient([ok()], { clock, token: 'paused' });
    const first = limited.logbook.receipts.get(1);
    await clock.advance(0);
    const second = sibling.logbook.receipts.get(2);
    await clock.advance(9_999);
    expect(limited.calls).toHaveLength(1);
    expect(sibling.calls).toHaveLength(0);
    await clock.advance(1);
    await Promise.all([first, second]);
    expect(limited.calls).toHaveLength(2);
    expect(sibling.calls).toHaveLength(1);
  });

  it('rateLimit: false sends everything at once, and a 429 then waits by itself', async () => {
    const { logbook, clock, calls } = testClient([ok()], { rateLimit: false });
    await Promise.all(Array.from({ length: 100 }, () => logbook.receipts.get(1)));
    expect(calls).toHaveLength(100);
    expect(clock.pending).toBe(0);
  });

  it('an aborted call leaves the queue', async () => {
    const { logbook, clock, calls } = testClient([ok()], { rateLimit: { perMinute: 1 } });
    await logbook.receipts.get(1);
    const controller = new AbortController();
    const held = logbook.receipts.get(2, { signal: controller.signal });
    await clock.advance(1000);
    controller.abort(new Error('never mind'));
    await expect(held).rejects.toThrow('never mind');
    await clock.advance(120_000);
    expect(calls).toHaveLength(1);
  });
});
