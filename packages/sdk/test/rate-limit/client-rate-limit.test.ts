import { describe, expect, it } from 'vitest';
import { FakeClock } from '../support/fake-clock';
import { receipt } from '../support/fixtures';
import { json } from '../support/stub-fetch';
import { testClient } from '../support/test-client';

const ok = () => json(200, { data: receipt() });

describe('the rate limiter of clients', () => {
  it('sends 60 requests per minute per token by default and holds the 61st', async () => {
    const { bb, clock, calls } = testClient([ok()]);
    const start = clock.now();
    const all = Array.from({ length: 61 }, () => bb.receipts.get(1042));
    await clock.advance(0);
    expect(calls).toHaveLength(60);
    await clock.advance(60_000);
    await Promise.all(all);
    expect(calls).toHaveLength(61);
    expect(clock.now()).toBe(start + 60_000);
  });

  it('is shared by every client holding the same token', async () => {
    const clock = new FakeClock();
    const first = testClient([ok()], { clock, token: 'shared-token', rateLimit: { perMinute: 2 } });
    const second = testClient([ok()], { clock, token: 'shared-token', rateLimit: { perMinute: 2 } });
    const other = testClient([ok()], { clock, token: 'other-token', rateLimit: { perMinute: 2 } });
    await first.bb.receipts.get(1);
    await second.bb.receipts.get(1);
    await other.bb.receipts.get(1);
    const held = second.bb.receipts.get(1);
    await clock.advance(59_999);
    expect(second.calls).toHaveLength(1);
    await clock.advance(1);
    await held;
    expect(second.calls).toHaveLength(2);
  });

  it("a 429 pauses the token's whole queue until Retry-After, other clients included", async () => {
    const clock = new FakeClock();
    const limited = testClient([json(429, { message: 'Too Many Attempts.' }, { 'Retry-After': '10' }), ok()], { clock, token: 'paused' });
    const sibling = testClient([ok()], { clock, token: 'paused' });
    const first = limited.bb.receipts.get(1);
    await clock.advance(0);
    const second = sibling.bb.receipts.get(2);
    await clock.advance(9_999);
    expect(limited.calls).toHaveLength(1);
    expect(sibling.calls).toHaveLength(0);
    await clock.advance(1);
    await Promise.all([first, second]);
    expect(limited.calls).toHaveLength(2);
    expect(sibling.calls).toHaveLength(1);
  });

  it('rateLimit: false sends everything at once, and a 429 then waits by itself', async () => {
    const { bb, clock, calls } = testClient([ok()], { rateLimit: false });
    await Promise.all(Array.from({ length: 100 }, () => bb.receipts.get(1)));
    expect(calls).toHaveLength(100);
    expect(clock.pending).toBe(0);
  });

  it('an aborted call leaves the queue', async () => {
    const { bb, clock, calls } = testClient([ok()], { rateLimit: { perMinute: 1 } });
    await bb.receipts.get(1);
    const controller = new AbortController();
    const held = bb.receipts.get(2, { signal: controller.signal });
    await clock.advance(1000);
    controller.abort(new Error('never mind'));
    await expect(held).rejects.toThrow('never mind');
    await clock.advance(120_000);
    expect(calls).toHaveLength(1);
  });
});
