import { describe, expect, it } from 'vitest';
import { dataOf } from '../harness/harness';
import { at, withEndpoint } from '../harness/endpoint';

describe('disabling an endpoint after 10 consecutive failed attempts', () => {
  it('disables it at the 10th, cancels its pending retries and sends nothing more until it is enabled', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await world.advance(2 * 86_400); // 8 failed attempts: the delivery is failed
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10)); // the 9th
    expect(world.endpoint()).toMatchObject({ enabled: true, consecutive_failures: 9 });
    await world.advance(60); // the 10th
    expect(world.transport.requests).toHaveLength(10);
    expect(world.endpoint()).toMatchObject({
      enabled: false,
      consecutive_failures: 10,
      updated_at: at(2 * 86_400 + 60),
    });
    const [second, first] = await world.deliveries();
    expect(second).toMatchObject({ state: 'cancelled', next_attempt_at: null });
    expect(second?.attempts).toHaveLength(2);
    expect(first?.state).toBe('failed');
    expect(dataOf(await world.api('GET', '/webhooks'))).toMatchObject([{ enabled: false }]);

    await world.receipt();
    await world.advance(7 * 86_400);
    expect(world.core.deliveries.startDue(10)).toEqual([]);
    expect(world.transport.requests).toHaveLength(10);
    expect(await world.deliveries()).toHaveLength(2);
    expect(errors(await world.control('POST', `/webhooks/${world.webhook.id}/ping`))).toEqual(['webhook_id']);
    expect(errors(await world.control('POST', `/deliveries/${second?.id}/redeliver`))).toEqual(['webhook_id']);
  });

  it('tells followers of the failure that disables it as cancelled, never with a next attempt', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    for (let n = 0; n < 9; n += 1) await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    const heard: string[] = [];
    world.core.watch(`Bearer ${world.token}`, (activity) => {
      if (activity.event === 'delivery') {
        const { attempts, state, next_attempt_at } = activity.data;
        heard.push(`${attempts.length} ${state} ${String(next_attempt_at)}`);
      }
    });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    expect(world.endpoint()).toMatchObject({ enabled: false, consecutive_failures: 10 });
    // The new delivery, then its first attempt (the 10th failure), which cancels it, and the
    // cancellation of the 9 deliveries that were still pending.
    expect(heard.slice(0, 2)).toEqual([expect.stringMatching(/^0 pending /), '1 cancelled null']);
    expect(heard.slice(2)).toEqual(Array(9).fill('1 cancelled null'));
  });

  it('counts failures across deliveries, and a success starts the count again', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    for (let n = 0; n < 9; n += 1) await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    expect(world.endpoint()?.consecutive_failures).toBe(9);
    world.transport.respond = () => ({ status: 200 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    expect(world.endpoint()).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  it('disables it when 10 attempts made at once all fail, and cancels every pending delivery', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    for (let n = 0; n < 12; n += 1) await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    expect(world.endpoint()).toMatchObject({ enabled: false, consecutive_failures: 12 });
    expect((await world.deliveries()).map((delivery) => delivery.state)).toEqual(Array(12).fill('cancelled'));
  });
});

describe('POST /_sandbox/webhooks/{id}/enable', () => {
  it('enables a disabled endpoint and resets its count; cancelled deliveries stay cancelled', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    for (let n = 0; n < 10; n += 1) await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    world.clock.ms += 5_000;
    const enabled = await world.control('POST', `/webhooks/${world.webhook.id}/enable`);
    expect(enabled).toMatchObject({
      status: 200,
      body: { data: { ...world.webhook, enabled: true, updated_at: at(5) } },
    });
    expect(world.endpoint()?.consecutive_failures).toBe(0);
    expect((await world.deliveries()).every((delivery) => delivery.state === 'cancelled')).toBe(true);
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    expect(world.endpoint()).toMatchObject({ enabled: true, consecutive_failures: 1 });
  });

  it('only resets the count of an enabled endpoint, and changes nothing when there is none', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(32));
    world.clock.ms += 5_000;
    expect(dataOf(await world.control('POST', `/webhooks/${world.webhook.id}/enable`))).toEqual(world.webhook);
    expect(world.endpoint()?.consecutive_failures).toBe(0);
    const version = world.core.version;
    expect((await world.control('POST', `/webhooks/${world.webhook.id}/enable`)).status).toBe(200);
    expect(world.core.version).toBe(version);
    expect((await world.deliveries())[0]).toMatchObject({ state: 'pending', next_attempt_at: at(60) });
  });

  it("answers 404 for an endpoint that does not exist or is another account's, 401 without a token", async () => {
    const world = await withEndpoint();
    expect((await world.control('POST', '/webhooks/99/enable')).status).toBe(404);
    const other = (await world.call('POST', '/_sandbox/accounts')).body as { token: string };
    expect(
      (await world.call('POST', `/_sandbox/webhooks/${world.webhook.id}/enable`, { token: other.token })).status,
    ).toBe(404);
    expect((await world.call('POST', `/_sandbox/webhooks/${world.webhook.id}/enable`)).status).toBe(401);
  });
});

function errors(response: { status: number; body?: unknown }): string[] {
  expect(response.status).toBe(422);
  return Object.keys((response.body as { errors: Record<string, string[]> }).errors);
}
