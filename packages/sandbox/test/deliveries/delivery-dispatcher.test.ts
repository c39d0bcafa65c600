import { createSandboxCore, type DeliveryOutcome, type DeliveryRequest } from '@fflkit/sandbox-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryDispatcher } from '../../src/deliveries/delivery-dispatcher';
import { receiptBody } from '../support/receipt-body';

const START = Date.UTC(2025, 2, 14, 15, 4, 5);

// Timers are faked; setImmediate stays real: each wake runs on the next turn of the event loop.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

/** One turn of the event loop: what a wake queued has run, up to its save. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
afterEach(() => {
  vi.useRealTimers();
});

/** A core with an endpoint on a hand-moved clock, whose transport the test answers. */
async function world(options: { concurrency?: number; stopGraceMs?: number } = {}) {
  const clock = { ms: START };
  const held: { request: DeliveryRequest; answer: (outcome: DeliveryOutcome) => void }[] = [];
  const core = createSandboxCore({
    now: () => clock.ms,
    sendDelivery: (request) => new Promise((resolve) => held.push({ request, answer: resolve })),
  });
  const { token } = core.createAccount();
  const call = (method: string, path: string, body?: unknown) =>
    core.handle({
      method,
      path,
      query: '',
      headers: { authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  await call('POST', '/rest/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] });
  let serial = 0;
  const receipt = () => call('POST', '/rest/v1/receipts', JSON.parse(receiptBody((serial += 1))));
  const saves: string[] = [];
  const persist = vi.fn(async () => {
    saves.push(`v${core.version}`);
  });
  const dispatcher = new DeliveryDispatcher({ deliveries: core.deliveries, persist, now: () => clock.ms, ...options });
  /** Moves the timers by `ms`, then lets what that set off run (a wake, the save, the sending). */
  const settle = async (ms = 0) => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let round = 0; round < 3; round += 1) await turn();
  };
  /** Stops the dispatcher, running out its grace period. */
  const stop = async () => {
    const stopped = dispatcher.stop();
    await settle(options.stopGraceMs ?? 1000);
    await stopped;
  };
  return { core, clock, held, call, receipt, persist, saves, dispatcher, settle, stop };
}

describe('DeliveryDispatcher', () => {
  it('sends what is due at start, and each new delivery once its change is saved', async () => {
    const w = await world();
    await w.receipt();
    let saved!: () => void;
    w.persist.mockImplementationOnce(() => new Promise<void>((resolve) => (saved = resolve)));
    w.dispatcher.start();
    expect(w.held).toHaveLength(0);
    await w.settle();
    expect(w.held).toHaveLength(0);
    saved();
    await w.settle();
    expect(w.held).toHaveLength(1);
    await w.receipt();
    await w.settle();
    expect(w.held).toHaveLength(2);
    expect(w.saves).toEqual(['v4']);
    expect(w.persist).toHaveBeenCalledTimes(2);
    await w.stop();
  });

  it('keeps at most `concurrency` attempts in flight, and starts the next as one ends', async () => {
    const w = await world({ concurrency: 2 });
    for (let n = 0; n < 5; n += 1) await w.receipt();
    w.dispatcher.start();
    await w.settle();
    expect(w.held).toHaveLength(2);
    expect(w.dispatcher.inFlight).toBe(2);
    w.held[0]?.answer({ status: 200 });
    await w.settle();
    expect(w.held).toHaveLength(3);
    expect(w.dispatcher.inFlight).toBe(2);
    for (const attempt of w.held.slice(1)) attempt.answer({ status: 200 });
    await w.settle();
    for (const attempt of w.held.slice(3)) attempt.answer({ status: 200 });
    await w.settle();
    expect(w.held).toHaveLength(5);
    expect(w.dispatcher.inFlight).toBe(0);
    expect(w.core.snapshot().deliveries.every((delivery) => delivery.state === 'succeeded')).toBe(true);
    await w.stop();
  });

  it('sends a retry when it falls due, on a timer, and saves each outcome', async () => {
    const w = await world();
    await w.receipt();
    w.dispatcher.start();
    await w.settle();
    w.held[0]?.answer({ status: 500 });
    await w.settle();
    const saved = w.persist.mock.calls.length;
    expect(w.core.snapshot().deliveries[0]).toMatchObject({
      state: 'pending',
      next_attempt_at: '2025-03-14T15:05:05Z',
    });
    w.clock.ms += 59_999;
    await w.settle(59_999);
    expect(w.held).toHaveLength(1);
    w.clock.ms += 1;
    await w.settle(1);
    expect(w.held).toHaveLength(2);
    expect(w.persist.mock.calls.length).toBeGreaterThan(saved);
    w.held[1]?.answer({ status: 200 });
    await w.settle();
    expect(w.core.snapshot().deliveries[0]?.state).toBe('succeeded');
    await w.stop();
  });

  it('stop() sends nothing more and, after the grace period, drops the outcome of an attempt in flight', async () => {
    const w = await world({ stopGraceMs: 100 });
    await w.receipt();
    w.dispatcher.start();
    await w.settle();
    const stopped = w.dispatcher.stop();
    await w.receipt();
    await w.settle(100);
    await stopped;
    const version = w.core.version;
    w.held[0]?.answer({ status: 200 });
    await w.settle();
    expect(w.held).toHaveLength(1);
    expect(w.core.version).toBe(version);
    expect(w.core.snapshot().deliveries.map((delivery) => delivery.state)).toEqual(['pending', 'pending']);
  });

  it('stop() waits for an attempt that ends within the grace period, and keeps its outcome', async () => {
    const w = await world({ stopGraceMs: 1000 });
    await w.receipt();
    w.dispatcher.start();
    await w.settle();
    const stopped = w.dispatcher.stop();
    w.held[0]?.answer({ status: 200 });
    await w.settle();
    await stopped;
    expect(w.core.snapshot().deliveries[0]?.state).toBe('succeeded');
  });
});
