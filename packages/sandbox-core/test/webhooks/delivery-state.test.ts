import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import { applyChanges } from '../../src/state/snapshot';
import { fakeTransport } from '../harness/fake-transport';
import { START } from '../harness/harness';
import { at, withEndpoint } from '../harness/endpoint';

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('delivery state and the change feed', () => {
  it('reports every change an attempt makes, so replaying the changes gives the same state', async () => {
    const world = await withEndpoint(['*'], { recordChanges: true });
    world.transport.respond = () => ({ status: 500 });
    const before = world.core.snapshot();
    world.core.takeChanges();
    await world.receipt();
    await world.advance(2 * 86_400);
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    await world.advance(60);
    await world.control('POST', `/webhooks/${world.webhook.id}/enable`);
    world.transport.respond = () => ({ status: 200 });
    await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    const changes = world.core.takeChanges();
    expect(changes.changes.filter((change) => change.collection === 'webhooks').length).toBeGreaterThan(10);
    expect(json(applyChanges(before, [changes]))).toEqual(json(world.core.snapshot()));
    expect(world.endpoint()).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  it('resumes pending deliveries in a core restored from a snapshot, on their schedule', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const transport = fakeTransport();
    let now = START;
    const restored = createSandboxCore({
      now: () => now,
      snapshot: json(world.core.snapshot()) as never,
      sendDelivery: (request) => transport.send(request),
    });
    expect(restored.deliveries.nextDueAt()).toBe(START + 60_000);
    now = START + 60_000;
    await Promise.all(restored.deliveries.startDue(10));
    expect(transport.requests[0]).toEqual(world.transport.requests[0]);
    const [delivery] = restored.snapshot().deliveries;
    expect(delivery).toMatchObject({ state: 'succeeded', scheduled_attempts: 2 });
    expect(delivery?.attempts.map((attempt) => attempt.at)).toEqual([at(0), at(60)]);
  });

  it('restores records saved without the failure and attempt counts', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const snapshot = json(world.core.snapshot()) as {
      webhooks: Record<string, unknown>[];
      deliveries: Record<string, unknown>[];
    };
    delete snapshot.webhooks[0]?.['consecutive_failures'];
    delete snapshot.deliveries[0]?.['scheduled_attempts'];
    const restored = createSandboxCore({ snapshot: snapshot as never });
    expect(restored.snapshot().webhooks[0]?.consecutive_failures).toBe(0);
    expect(restored.snapshot().deliveries[0]?.scheduled_attempts).toBe(1);
  });

  it('records nothing for an attempt in flight when the account is reset meanwhile', async () => {
    const world = await withEndpoint();
    world.transport.hold = true;
    await world.receipt();
    const [flight] = world.core.deliveries.startDue(10);
    await world.control('POST', '/reset');
    const version = world.core.version;
    world.transport.held[0]?.answer({ status: 200 });
    await flight;
    expect(world.core.version).toBe(version);
    expect(await world.deliveries()).toEqual([]);
    expect(world.core.deliveries.nextDueAt()).toBeUndefined();
  });

  it('throws a TypeError naming the package for a sendDelivery that is not a function', () => {
    expect(() => createSandboxCore({ sendDelivery: 'fetch' as never })).toThrow(
      /^\[@fflkit\/sandbox-core\] sendDelivery must be a function/,
    );
  });
});
