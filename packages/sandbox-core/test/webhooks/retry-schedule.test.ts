import { WEBHOOK_RETRY_DELAYS_SECONDS } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { at, withEndpoint } from '../harness/endpoint';

/** Seconds from the first attempt to each attempt: 0, then each retry delay added up. */
const SCHEDULE = [0];
for (const delay of WEBHOOK_RETRY_DELAYS_SECONDS) SCHEDULE.push(SCHEDULE.at(-1)! + delay);

describe('the retry schedule, run by POST /_sandbox/clock/advance', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, to the second, then fails the delivery', async () => {
    expect(SCHEDULE).toEqual([0, 60, 360, 2160, 9360, 27360, 63360, 99360]);
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 503 });
    await world.receipt();
    const answer = await world.advance(2 * 86_400);
    expect(answer.body).toEqual({ data: { now: at(2 * 86_400), offset_seconds: 2 * 86_400 } });
    const [delivery] = await world.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', next_attempt_at: null });
    expect(delivery?.attempts).toEqual(
      SCHEDULE.map((seconds) => ({ at: at(seconds), status_code: 503, error: null, duration_ms: 0 })),
    );
    expect(world.endpoint()).toMatchObject({ enabled: true, consecutive_failures: 8 });
  });

  it('sends the same id and byte-identical body, signed alike, on every attempt', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ error: 'Connection refused.' });
    await world.receipt();
    await world.advance(2 * 86_400);
    const { requests } = world.transport;
    expect(requests).toHaveLength(8);
    for (const request of requests) expect(request).toEqual(requests[0]);
    expect(requests[0]?.headers['X-SVC-Delivery']).toBe((await world.deliveries())[0]?.id);
  });

  it('makes an overdue first attempt at the start of the skipped time', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    world.clock.ms += 30_000;
    await world.advance(90);
    expect((await world.deliveries())[0]?.attempts.map((attempt) => attempt.at)).toEqual([at(30), at(90)]);
  });

  it('runs only what falls due within the skipped time, and the rest on later advances', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await world.advance(359);
    expect((await world.deliveries())[0]).toMatchObject({ next_attempt_at: at(360) });
    expect(world.transport.requests).toHaveLength(2);
    await world.advance(1);
    expect(world.transport.requests).toHaveLength(3);
    expect((await world.deliveries())[0]?.attempts.map((attempt) => attempt.at)).toEqual([at(0), at(60), at(360)]);
  });

  it('makes the attempts of several deliveries in order of due time', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    world.clock.ms += 10_000;
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    await world.advance(360);
    const ids = new Map((await world.deliveries()).map((delivery) => [delivery.id, delivery.created_at]));
    const order = world.transport.requests.map((request) => ids.get(request.headers['X-SVC-Delivery']!));
    expect(order).toEqual([at(0), at(10), at(0), at(10), at(0), at(10)]);
    expect((await world.deliveries()).map((delivery) => delivery.attempts.map((attempt) => attempt.at))).toEqual([
      [at(10), at(70), at(370)],
      [at(0), at(60), at(360)],
    ]);
  });

  it('stops retrying once an attempt succeeds', async () => {
    const world = await withEndpoint();
    let failures = 2;
    world.transport.respond = () => (failures-- > 0 ? { status: 500 } : { status: 200 });
    await world.receipt();
    await world.advance(86_400);
    expect((await world.deliveries())[0]).toMatchObject({ state: 'succeeded', next_attempt_at: null });
    expect(world.transport.requests).toHaveLength(3);
    expect(world.endpoint()?.consecutive_failures).toBe(0);
  });

  it('waits for an attempt in flight before running what falls due after it', async () => {
    const world = await withEndpoint();
    world.transport.hold = true;
    await world.receipt();
    const [flight] = world.core.deliveries.startDue(10);
    const advanced = world.advance(60);
    // While the advance runs, the account's attempts are not handed out to a dispatcher.
    expect(world.core.deliveries.nextDueAt()).toBeUndefined();
    world.transport.held[0]?.answer({ status: 500 });
    await flight;
    await world.transport.sent(2);
    expect(world.core.deliveries.startDue(10)).toEqual([]);
    world.transport.held[1]?.answer({ status: 200 });
    await advanced;
    expect((await world.deliveries())[0]?.attempts.map((attempt) => [attempt.at, attempt.status_code])).toEqual([
      [at(0), 500],
      [at(60), 200],
    ]);
  });

  it('makes the attempts of one advance after those of an earlier one of the same account', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all([world.advance(60), world.advance(300)]);
    expect((await world.deliveries())[0]?.attempts.map((attempt) => attempt.at)).toEqual([at(0), at(60), at(360)]);
  });
});

describe('due times to the millisecond', () => {
  it('never makes the 1-minute retry within 59 s of a failure off the whole second, and always within 60 s', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    world.clock.ms += 999;
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const [failed] = await world.deliveries();
    expect(failed?.next_attempt_at).toBe('2025-03-14T15:05:05.999Z');
    await world.advance(59);
    expect(world.transport.requests).toHaveLength(1);
    expect(world.core.deliveries.nextDueAt()).toBe(world.clock.ms + 1000);
    await world.advance(1);
    expect(world.transport.requests).toHaveLength(2);
  });

  it('stamps two events of one millisecond a millisecond apart, so their bodies differ', async () => {
    const world = await withEndpoint();
    world.clock.ms += 250;
    await world.receipt();
    await world.api('PUT', '/receipts/1', { body: { model: 'B' } });
    await world.api('PUT', '/receipts/1', { body: { model: 'A' } });
    await world.api('PUT', '/receipts/1', { body: { model: 'B' } });
    await Promise.all(world.core.deliveries.startDue(10));
    const stamps = world.transport.requests.map(
      (request) => (JSON.parse(request.body) as { timestamp: string }).timestamp,
    );
    expect(stamps).toEqual([
      '2025-03-14T15:04:05.250Z',
      '2025-03-14T15:04:05.251Z',
      '2025-03-14T15:04:05.252Z',
      '2025-03-14T15:04:05.253Z',
    ]);
    expect(new Set(world.transport.requests.map((request) => request.body)).size).toBe(4);
  });
});

describe('event timestamps across a reset and a revert', () => {
  it('never stamp two events of an account alike, on a clock held still', async () => {
    const world = await withEndpoint(['*'], { recordChanges: true });
    world.core.confirmChanges(world.core.takeChanges());
    await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    world.core.revertChanges();
    await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    await world.control('POST', '/reset');
    const again = await world.api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/b', events: ['*'] } });
    await world.control('POST', `/webhooks/${(again.body as { data: { id: number } }).data.id}/ping`);
    const stamps = world.transport.requests.map(
      (request) => (JSON.parse(request.body) as { timestamp: string }).timestamp,
    );
    expect(stamps).toEqual(['2025-03-14T15:04:05Z', '2025-03-14T15:04:05.001Z', '2025-03-14T15:04:05.002Z']);
  });
});
