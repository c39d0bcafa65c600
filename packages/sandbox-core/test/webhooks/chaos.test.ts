import { createSandboxCore } from '../../src/core';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/webhooks/attempts';
import { dataOf, errorsOf, START } from '../harness/harness';
import { at, withEndpoint } from '../harness/endpoint';

type World = Awaited<ReturnType<typeof withEndpoint>>;

/** Sets the endpoint's chaos through the control API. */
async function chaos(world: World, settings: unknown) {
  return world.control('PUT', `/webhooks/${world.webhook.id}/chaos`, { body: settings });
}

/** Starts every due attempt, and those that fall due as they end, until none is left. */
async function drain(world: World): Promise<void> {
  for (
    let started = world.core.deliveries.startDue(32);
    started.length > 0;
    started = world.core.deliveries.startDue(32)
  ) {
    await Promise.all(started);
  }
}

/** The serial numbers of the receipts whose deliveries were sent, in the order they were sent. */
const sent = (requests: readonly DeliveryRequest[]) =>
  requests.map((request) => (JSON.parse(request.body) as { data: { serial_number: string } }).data.serial_number);

/** `count` receipts made one after the other: SN1, SN2, ... */
async function receipts(world: World, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) await world.receipt();
}

/** A millisecond instant from START, as `next_attempt_at` writes it. */
const instant = (ms: number) => new Date(START + ms).toISOString().replace('.000Z', 'Z');

describe('PUT /_sandbox/webhooks/{id}/chaos', () => {
  it('answers the endpoint with its settings, off ones and defaults filled in, and lists them', async () => {
    const world = await withEndpoint();
    const response = await chaos(world, { reorder: { window: 4 }, seed: 7 });
    expect(response.status).toBe(200);
    const expected = { reorder: { window: 4, hold_ms: 1000 }, duplicate: 0, delay_ms: 0, seed: 7 };
    expect(dataOf(response)).toEqual({ ...world.webhook, consecutive_failures: 0, chaos: expected });
    expect(dataOf(await world.control('GET', '/webhooks'))).toEqual([
      { ...world.webhook, consecutive_failures: 0, chaos: expected },
    ]);
    // The service's own API knows nothing of it.
    expect(dataOf(await world.api('GET', '/webhooks'))).toEqual([world.webhook]);
  });

  it('draws a seed when none is given, and shows it so that a run can be repeated', async () => {
    const world = await withEndpoint();
    const { chaos: settings } = dataOf<{ chaos: { seed: number } }>(await chaos(world, { duplicate: 0.5 }));
    expect(Number.isInteger(settings.seed) && settings.seed >= 0 && settings.seed < 2 ** 32).toBe(true);
  });

  it('clears the chaos when every setting is off, and DELETE clears it with 204, twice alike', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 10 });
    expect(dataOf(await chaos(world, { reorder: null, duplicate: 0, delay_ms: 0, seed: 3 }))).toMatchObject({
      chaos: null,
    });
    await chaos(world, { delay_ms: 10 });
    expect((await world.control('DELETE', `/webhooks/${world.webhook.id}/chaos`)).status).toBe(204);
    expect(dataOf(await world.control('GET', '/webhooks'))).toMatchObject([{ chaos: null }]);
    expect((await world.control('DELETE', `/webhooks/${world.webhook.id}/chaos`)).status).toBe(204);
  });

  it('refuses each setting out of its range, and changes nothing', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 10, seed: 1 });
    const refused = await chaos(world, {
      reorder: { window: 1, hold_ms: 0 },
      duplicate: 1.5,
      delay_ms: 3_600_001,
      seed: 2 ** 32,
    });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({
      'reorder.window': ['The reorder.window field must be at least 2.'],
      'reorder.hold_ms': ['The reorder.hold ms field must be at least 1.'],
      duplicate: ['The duplicate field must not be greater than 1.'],
      delay_ms: ['The delay ms field must not be greater than 3600000.'],
      seed: ['The seed field must not be greater than 4294967295.'],
    });
    expect(dataOf(await world.control('GET', '/webhooks'))).toMatchObject([{ chaos: { delay_ms: 10, seed: 1 } }]);
  });

  it.each([
    [{ reorder: { window: 101 } }, 'reorder.window', 'The reorder.window field must not be greater than 100.'],
    [{ reorder: { window: 2.5 } }, 'reorder.window', 'The reorder.window field must be an integer.'],
    [{ reorder: { window: '4' } }, 'reorder.window', 'The reorder.window field must be a number.'],
    [{ reorder: {} }, 'reorder.window', 'The reorder.window field is required.'],
    [
      { reorder: { window: 2, hold_ms: 3_600_001 } },
      'reorder.hold_ms',
      'The reorder.hold ms field must not be greater than 3600000.',
    ],
    [{ reorder: 4 }, 'reorder', 'The reorder field must be an object.'],
    [{ reorder: [] }, 'reorder', 'The reorder field must be an object.'],
    [{ duplicate: -0.1 }, 'duplicate', 'The duplicate field must be at least 0.'],
    [{ duplicate: '0.5' }, 'duplicate', 'The duplicate field must be a number.'],
    [{ duplicate: true }, 'duplicate', 'The duplicate field must be a number.'],
    [{ delay_ms: -1 }, 'delay_ms', 'The delay ms field must be at least 0.'],
    [{ delay_ms: 1.5 }, 'delay_ms', 'The delay ms field must be an integer.'],
    [{ seed: -1 }, 'seed', 'The seed field must be at least 0.'],
    [{ seed: 0.5 }, 'seed', 'The seed field must be an integer.'],
  ])('refuses %j on %s', async (settings, field, message) => {
    const world = await withEndpoint();
    const refused = await chaos(world, settings);
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({ [field]: [message] });
  });

  it('refuses a field it does not know, so that a misspelt setting cannot pass unnoticed', async () => {
    const world = await withEndpoint();
    const refused = await chaos(world, { dealy_ms: 500, reorder: { window: 2, hold: 10 }, __proto__: 1, 'a b': 2 });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused)).toEqual({
      dealy_ms: [
        'The dealy_ms field is not a setting of delivery chaos: the settings are reorder, duplicate, delay_ms, seed.',
      ],
      body: ['The body field is not a setting of delivery chaos: the settings are reorder, duplicate, delay_ms, seed.'],
      'reorder.hold': [
        'The reorder.hold field is not a setting of delivery chaos: the settings are reorder.window, reorder.hold_ms.',
      ],
    });
    expect(dataOf(await world.control('GET', '/webhooks'))).toMatchObject([{ chaos: null }]);
  });

  it('refuses a body that is not a JSON object, and a number JSON would change', async () => {
    const world = await withEndpoint();
    const path = `/webhooks/${world.webhook.id}/chaos`;
    expect(errorsOf(await world.control('PUT', path, { rawBody: '[1]' }))).toEqual({
      body: ['The request body must be a JSON object.'],
    });
    expect(errorsOf(await world.control('PUT', path, { rawBody: '{"duplicate": 1e-400}' }))).toEqual({
      duplicate: ['The duplicate field must be a number that is stored as written: it would be stored as 0.'],
    });
  });

  it('is 404 for an endpoint the account does not have, or has deleted', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 10 });
    expect((await world.control('PUT', '/webhooks/999/chaos', { body: { delay_ms: 1 } })).status).toBe(404);
    expect((await world.control('DELETE', '/webhooks/999/chaos')).status).toBe(404);
    expect((await world.api('DELETE', `/webhooks/${world.webhook.id}`)).status).toBe(204);
    expect((await chaos(world, { delay_ms: 1 })).status).toBe(404);
  });

  it('goes with the account reset: an endpoint made again starts without chaos', async () => {
    const world = await withEndpoint();
    await chaos(world, { duplicate: 1 });
    await world.control('POST', '/reset');
    await world.api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/logbook', events: ['*'] } });
    expect(dataOf(await world.control('GET', '/webhooks'))).toMatchObject([{ chaos: null }]);
  });

  it('takes settings on a disabled endpoint, which sends nothing, and applies them once it is enabled', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await receipts(world, 10);
    await drain(world);
    expect(world.endpoint()).toMatchObject({ enabled: false });

    expect(dataOf(await chaos(world, { duplicate: 1, seed: 1 }))).toMatchObject({
      enabled: false,
      chaos: { duplicate: 1 },
    });
    await world.receipt();
    await drain(world);
    expect(world.transport.requests).toHaveLength(10);

    world.transport.respond = () => ({ status: 200 });
    await world.control('POST', `/webhooks/${world.webhook.id}/enable`);
    await world.receipt();
    await drain(world);
    expect(world.transport.requests).toHaveLength(12);
    expect((await world.deliveries())[0]?.attempts).toEqual([
      { at: at(0), status_code: 200, error: null, duration_ms: 0 },
      { at: at(0), status_code: 200, error: null, duration_ms: 0, duplicate: true },
    ]);
  });
});

describe('reorder: windows of deliveries sent in a shuffled order', () => {
  it('holds a window until it is full, then sends it in the seeded order, one attempt at a time', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 4 }, seed: 5 });
    world.transport.hold = true;
    await receipts(world, 3);
    expect(world.core.deliveries.startDue(32)).toEqual([]);
    expect((await world.deliveries()).map((delivery) => delivery.next_attempt_at)).toEqual(
      Array(3).fill(instant(1000)),
    );

    await world.receipt();
    expect((await world.deliveries()).map((delivery) => delivery.next_attempt_at)).toEqual(Array(4).fill(at(0)));
    const order: string[] = [];
    for (let n = 0; n < 4; n += 1) {
      const started = world.core.deliveries.startDue(32);
      // The next one waits until the receiver answered this one.
      expect(started).toHaveLength(1);
      expect(world.core.deliveries.startDue(32)).toEqual([]);
      world.transport.held[n]?.answer({ status: 200 });
      await Promise.all(started);
      order.push(...sent([world.transport.requests[n]!]));
    }
    expect(order).toEqual(['SN3', 'SN4', 'SN2', 'SN1']);
    expect((await world.deliveries()).every((delivery) => delivery.state === 'succeeded')).toBe(true);
  });

  it('sends the same order for the same seed and events, and never a full window in the order it was made', async () => {
    const orders = new Set<string>();
    for (const seed of [7, 7, 8, 9, 10, 11]) {
      const world = await withEndpoint();
      await chaos(world, { reorder: { window: 3 }, seed });
      await receipts(world, 3);
      await drain(world);
      const order = sent(world.transport.requests).join(' ');
      expect(order).not.toBe('SN1 SN2 SN3');
      if (seed === 7) orders.add(order);
    }
    expect(orders.size).toBe(1);
    for (let seed = 0; seed < 40; seed += 1) {
      const world = await withEndpoint();
      await chaos(world, { reorder: { window: 2 }, seed });
      await receipts(world, 2);
      await drain(world);
      expect(sent(world.transport.requests)).toEqual(['SN2', 'SN1']);
    }
  });

  it('releases a window that is not full when its hold ends, in its shuffled order', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 4, hold_ms: 500 }, seed: 5 });
    await receipts(world, 3);
    world.clock.ms += 499;
    expect(world.core.deliveries.startDue(32)).toEqual([]);
    expect(world.core.deliveries.nextDueAt()).toBe(START + 500);
    world.clock.ms += 1;
    await drain(world);
    // Seed 5 sends a full window's four in the order 3, 4, 2, 1: these three go as 3, 2, 1.
    expect(sent(world.transport.requests)).toEqual(['SN3', 'SN2', 'SN1']);
  });

  it('opens a new window for a delivery made once the hold of the last one ended', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 2, hold_ms: 500 }, seed: 7 });
    await world.receipt();
    world.clock.ms += 500;
    await world.receipt();
    const [second, first] = await world.deliveries();
    expect(first?.next_attempt_at).toBe(instant(500));
    expect(second?.next_attempt_at).toBe(instant(1000));
  });

  it('is released by a clock advance, one attempt at a time and in order', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 4, hold_ms: 500 }, seed: 5 });
    await receipts(world, 3);
    world.transport.hold = true;
    const advanced = world.advance(1);
    for (let n = 1; n <= 3; n += 1) {
      await world.transport.sent(n);
      // Had two been sent at once, both would be here by now.
      expect(world.transport.requests).toHaveLength(n);
      world.transport.held[n - 1]?.answer({ status: 200 });
    }
    expect((await advanced).status).toBe(200);
    expect(sent(world.transport.requests)).toEqual(['SN3', 'SN2', 'SN1']);
    expect((await world.deliveries()).map((delivery) => delivery.attempts[0]?.at)).toEqual([at(0), at(0), at(0)]);
  });

  it('keeps the shuffled order of a released window across a restart', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 4 }, seed: 5 });
    await receipts(world, 4);
    const sentAfterRestart: DeliveryRequest[] = [];
    const restarted = createSandboxCore({
      snapshot: world.core.snapshot(),
      now: () => world.clock.ms,
      sendDelivery: (request) => {
        sentAfterRestart.push(request);
        return Promise.resolve({ status: 200 });
      },
    });
    for (
      let started = restarted.deliveries.startDue(32);
      started.length > 0;
      started = restarted.deliveries.startDue(32)
    ) {
      await Promise.all(started);
    }
    expect(sent(sentAfterRestart)).toEqual(['SN3', 'SN4', 'SN2', 'SN1']);
  });

  it('leaves other endpoints of the account alone', async () => {
    const world = await withEndpoint();
    await world.api('POST', '/webhooks', { body: { url: 'https://other.example.com/hook', events: ['*'] } });
    await chaos(world, { reorder: { window: 4 }, seed: 5 });
    world.transport.hold = true;
    await receipts(world, 2);
    const started = world.core.deliveries.startDue(32);
    expect(started).toHaveLength(2);
    expect(world.transport.requests.map((request) => request.url)).toEqual(
      Array(2).fill('https://other.example.com/hook'),
    );
  });

  it('keeps the timing of a window already held when the chaos is cleared', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 4 }, seed: 5 });
    await receipts(world, 2);
    await world.control('DELETE', `/webhooks/${world.webhook.id}/chaos`);
    await world.receipt();
    await drain(world);
    expect(sent(world.transport.requests)).toEqual(['SN3']);
    world.clock.ms += 1000;
    await drain(world);
    expect(sent(world.transport.requests)).toEqual(['SN3', 'SN2', 'SN1']);
  });
});

describe('duplicate: every attempt of some deliveries sent twice', () => {
  it('sends the same request again once the first is answered, and records it as a duplicate attempt', async () => {
    const world = await withEndpoint();
    await chaos(world, { duplicate: 1 });
    world.transport.hold = true;
    await world.receipt();
    const [flight] = world.core.deliveries.startDue(32);
    await world.transport.sent(1);
    expect(world.transport.requests).toHaveLength(1);
    world.transport.held[0]?.answer({ status: 200 });
    await world.transport.sent(2);
    const [first, second] = world.transport.requests;
    expect(second).toEqual(first);
    world.clock.ms += 3;
    world.transport.held[1]?.answer({ status: 204 });
    await flight;
    expect((await world.deliveries())[0]).toMatchObject({
      state: 'succeeded',
      attempts: [
        { at: at(0), status_code: 200, error: null, duration_ms: 0 },
        { at: at(0), status_code: 204, error: null, duration_ms: 3, duplicate: true },
      ],
    });
  });

  it('never changes what the first sending decided: state, retries and the count of failures', async () => {
    const world = await withEndpoint();
    await chaos(world, { duplicate: 1 });
    const answers = [{ status: 500 }, { status: 200 }, { status: 200 }, { error: 'Connection refused.' }];
    world.transport.respond = () => answers.shift() ?? { status: 200 };
    await world.receipt();
    await drain(world);
    expect((await world.deliveries())[0]).toMatchObject({
      state: 'pending',
      next_attempt_at: at(60),
      attempts: [{ status_code: 500 }, { status_code: 200, duplicate: true }],
    });
    expect(world.endpoint()?.consecutive_failures).toBe(1);

    await world.advance(60);
    expect((await world.deliveries())[0]).toMatchObject({
      state: 'succeeded',
      attempts: [
        { status_code: 500 },
        { status_code: 200, duplicate: true },
        { status_code: 200 },
        { error: 'Connection refused.', duplicate: true },
      ],
    });
    expect(world.endpoint()?.consecutive_failures).toBe(0);
  });

  it('duplicates the share of deliveries it is given, the same ones for the same seed', async () => {
    const chosen: string[] = [];
    for (const _run of [1, 2]) {
      const world = await withEndpoint();
      await chaos(world, { duplicate: 0.5, seed: 42 });
      await receipts(world, 20);
      await drain(world);
      const serials = sent(world.transport.requests);
      chosen.push(serials.filter((serial, index) => serials.indexOf(serial) !== index).join(' '));
    }
    const duplicated = chosen[0]!.split(' ');
    expect(duplicated.length).toBeGreaterThan(4);
    expect(duplicated.length).toBeLessThan(16);
    expect(chosen[1]).toBe(chosen[0]);
  });

  it('duplicates a ping, whose answer reports both sendings, and a redelivery', async () => {
    const world = await withEndpoint();
    await chaos(world, { duplicate: 1, delay_ms: 60_000, reorder: { window: 2 } });
    const ping = await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    // A ping is made at once, neither held nor delayed.
    expect(dataOf(ping)).toMatchObject({
      event: 'ping',
      state: 'succeeded',
      attempts: [{ status_code: 200 }, { status_code: 200, duplicate: true }],
    });
    const id = dataOf<{ id: string }>(ping).id;
    const redelivered = await world.control('POST', `/deliveries/${id}/redeliver`);
    expect(dataOf<{ attempts: unknown[] }>(redelivered).attempts).toHaveLength(4);
    expect(world.transport.requests).toHaveLength(4);
  });

  it('sends no second time to an endpoint that the first sending disabled', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await receipts(world, 9);
    await drain(world);
    await chaos(world, { duplicate: 1 });
    await world.receipt();
    await drain(world);
    expect(world.transport.requests).toHaveLength(10);
    expect(world.endpoint()).toMatchObject({ enabled: false });
    expect((await world.deliveries())[0]).toMatchObject({ state: 'cancelled', attempts: [{ status_code: 500 }] });
  });
});

describe('delay_ms: deliveries sent late', () => {
  it('has the first attempt fall due the delay after the event, and not before', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 250 });
    await world.receipt();
    expect((await world.deliveries())[0]).toMatchObject({ created_at: at(0), next_attempt_at: instant(250) });
    world.clock.ms += 249;
    expect(world.core.deliveries.startDue(32)).toEqual([]);
    world.clock.ms += 1;
    await drain(world);
    expect((await world.deliveries())[0]).toMatchObject({ state: 'succeeded', attempts: [{ status_code: 200 }] });
  });

  it('spends a delay longer than the time-out before the attempt, never within it', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 10_000 });
    world.transport.respond = () => {
      world.clock.ms += 12;
      return { status: 200 };
    };
    await world.receipt();
    await world.advance(10);
    expect((await world.deliveries())[0]).toMatchObject({
      state: 'succeeded',
      attempts: [{ at: at(10), status_code: 200, error: null, duration_ms: 12 }],
    });
  });

  it('keeps the service delays of retries, counted from the late attempt', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 5_000 });
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    world.clock.ms += 5_000;
    await drain(world);
    expect((await world.deliveries())[0]?.next_attempt_at).toBe(at(65));
  });

  it('comes on top of a window release', async () => {
    const world = await withEndpoint();
    await chaos(world, { delay_ms: 100, reorder: { window: 2, hold_ms: 400 }, seed: 7 });
    await world.receipt();
    expect((await world.deliveries())[0]?.next_attempt_at).toBe(instant(500));
    world.clock.ms += 50;
    await world.receipt();
    expect((await world.deliveries()).map((delivery) => delivery.next_attempt_at)).toEqual([
      instant(150),
      instant(150),
    ]);
  });
});

describe('chaos in a snapshot', () => {
  it('restores an endpoint saved before delivery chaos existed as one without chaos', async () => {
    const world = await withEndpoint();
    const snapshot = world.core.snapshot();
    const saved = snapshot.webhooks.map(({ chaos: _chaos, ...rest }) => rest);
    const restored = createSandboxCore({ snapshot: { ...snapshot, webhooks: saved }, now: () => world.clock.ms });
    expect(restored.snapshot().webhooks).toEqual([{ ...saved[0], chaos: null }]);
  });

  it('keeps the settings and the window held across a restart', async () => {
    const world = await withEndpoint();
    await chaos(world, { reorder: { window: 3 }, duplicate: 1, seed: 5 });
    await receipts(world, 1);
    const restored = createSandboxCore({ snapshot: world.core.snapshot(), now: () => world.clock.ms });
    expect(restored.snapshot().webhooks[0]?.chaos).toEqual(world.endpoint()?.chaos);
    expect(world.endpoint()?.chaos).toMatchObject({
      made: 1,
      window: { first: 0, opened_ms: START, ids: [expect.any(String)] },
    });
  });
});
