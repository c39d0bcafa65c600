import { describe, expect, it } from 'vitest';
import { START } from '../harness/harness';
import { at, withEndpoint } from '../harness/endpoint';

describe('core.deliveries: attempts in real time', () => {
  it('startDue() sends a due delivery through the transport and records a 2xx as succeeded', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => {
      world.clock.ms += 12;
      return { status: 204 };
    };
    await world.receipt();
    expect(world.core.deliveries.nextDueAt()).toBe(START);
    const started = world.core.deliveries.startDue(10);
    expect(started).toHaveLength(1);
    await Promise.all(started);
    const [delivery] = await world.deliveries();
    expect(delivery).toMatchObject({
      state: 'succeeded',
      next_attempt_at: null,
      attempts: [{ at: at(0), status_code: 204, error: null, duration_ms: 12 }],
    });
    expect(world.core.deliveries.nextDueAt()).toBeUndefined();
    expect(world.core.deliveries.startDue(10)).toEqual([]);
  });

  it('schedules a retry a minute after a failed attempt, due then and not before', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    expect(await world.deliveries()).toMatchObject([{ state: 'pending', next_attempt_at: at(60) }]);
    expect(world.core.deliveries.nextDueAt()).toBe(START + 60_000);
    world.clock.ms += 59_999;
    expect(world.core.deliveries.startDue(10)).toEqual([]);
    world.clock.ms += 1;
    await Promise.all(world.core.deliveries.startDue(10));
    expect((await world.deliveries())[0]).toMatchObject({ next_attempt_at: at(60 + 300) });
    expect((await world.deliveries())[0]?.attempts.map((attempt) => attempt.at)).toEqual([at(0), at(60)]);
  });

  it('counts due times on each account clock: an advanced account is due earlier on the wall clock', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.advance(3600);
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    expect((await world.deliveries())[0]?.next_attempt_at).toBe(at(3660));
    expect(world.core.deliveries.nextDueAt()).toBe(START + 60_000);
  });

  it('starts at most `limit` attempts, earliest first', async () => {
    const world = await withEndpoint();
    for (let n = 0; n < 5; n += 1) await world.receipt();
    const started = world.core.deliveries.startDue(3);
    expect(started).toHaveLength(3);
    await Promise.all(started);
    const states = (await world.deliveries()).map((delivery) => delivery.state);
    expect(states).toEqual(['pending', 'pending', 'succeeded', 'succeeded', 'succeeded']);
    await Promise.all(world.core.deliveries.startDue(3));
    expect((await world.deliveries()).every((delivery) => delivery.state === 'succeeded')).toBe(true);
  });

  it('keeps one attempt of a delivery in flight: neither started again nor reported due meanwhile', async () => {
    const world = await withEndpoint();
    world.transport.hold = true;
    await world.receipt();
    const [flight] = world.core.deliveries.startDue(10);
    expect(world.core.deliveries.startDue(10)).toEqual([]);
    expect(world.core.deliveries.nextDueAt()).toBeUndefined();
    world.transport.held[0]?.answer({ status: 200 });
    await flight;
    await world.core.deliveries.idle();
    expect(world.transport.requests).toHaveLength(1);
    expect((await world.deliveries())[0]?.state).toBe('succeeded');
  });

  it('tells subscribers when a change schedules an attempt and when an attempt ends', async () => {
    const world = await withEndpoint(['receipt.deleted']);
    let heard = 0;
    const unsubscribe = world.core.deliveries.subscribe(() => {
      heard += 1;
    });
    await world.receipt();
    expect(heard).toBe(0);
    await world.api('DELETE', '/receipts/1');
    expect(heard).toBe(1);
    await Promise.all(world.core.deliveries.startDue(10));
    expect(heard).toBe(2);
    unsubscribe();
    await world.receipt();
    await world.api('DELETE', '/receipts/2');
    expect(heard).toBe(2);
  });
});

describe('core.deliveries.close()', () => {
  it('drops the outcome of an attempt in flight and starts nothing more: the delivery stays pending', async () => {
    const world = await withEndpoint();
    world.transport.hold = true;
    await world.receipt();
    const [flight] = world.core.deliveries.startDue(10);
    const version = world.core.version;
    world.core.deliveries.close();
    world.transport.held[0]?.answer({ status: 200 });
    await flight;
    expect(world.core.version).toBe(version);
    expect(await world.deliveries()).toMatchObject([{ state: 'pending', next_attempt_at: at(0), attempts: [] }]);
    expect(world.core.deliveries.startDue(10)).toEqual([]);
    expect(world.core.deliveries.nextDueAt()).toBeUndefined();
  });
});

describe('the transport', () => {
  it('records a rejection or a malformed outcome as a failed attempt with a reason', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => {
      throw new Error('socket hang up');
    };
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    world.transport.respond = () => ({ nothing: true }) as never;
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const [second, first] = await world.deliveries();
    expect(first?.attempts[0]).toMatchObject({ status_code: null, error: 'The transport failed: socket hang up' });
    expect(second?.attempts[0]).toMatchObject({
      status_code: null,
      error: 'The transport answered neither a status nor an error.',
    });
  });

  it('is missing from a core made without sendDelivery: attempts fail and say so, nothing is sent', async () => {
    const { withAccount } = await import('../harness/harness');
    const world = await withAccount();
    await world.api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['*'] } });
    const pinged = await world.control('POST', '/webhooks/1/ping');
    expect(pinged.body).toMatchObject({
      data: { state: 'pending', attempts: [{ status_code: null, error: expect.stringMatching(/^No transport/) }] },
    });
  });

  it('treats redirects and other non-2xx statuses as failures, and every 2xx as success', async () => {
    const world = await withEndpoint();
    const statuses = [301, 302, 100, 199, 300, 404, 200, 201, 299];
    world.transport.respond = () => ({ status: statuses[world.transport.requests.length - 1] ?? 500 });
    for (let n = 0; n < statuses.length; n += 1) {
      await world.receipt();
      await Promise.all(world.core.deliveries.startDue(1));
    }
    const states = (await world.deliveries())
      .reverse()
      .map((delivery) => [delivery.attempts[0]?.status_code, delivery.state]);
    expect(states).toEqual(
      statuses.map((status) => [status, status >= 200 && status <= 299 ? 'succeeded' : 'pending']),
    );
  });
});
