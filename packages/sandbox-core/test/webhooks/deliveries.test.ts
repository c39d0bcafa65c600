import type { SandboxDelivery } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, dispositionBody, receiptBody, withAccount } from '../harness/harness';
import { at, withEndpoint } from '../harness/endpoint';

describe('GET /_sandbox/deliveries', () => {
  it("lists the account's deliveries newest first, with their attempts and without bodies", async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    world.clock.ms += 1000;
    await world.api('PUT', '/receipts/1', { body: { model: 'EX-9 Full Size' } });
    const list = await world.deliveries();
    expect(list).toEqual([
      {
        id: expect.any(String),
        webhook_id: world.webhook.id,
        event: 'receipt.updated',
        state: 'pending',
        next_attempt_at: at(1),
        created_at: at(1),
        attempts: [],
      },
      {
        id: expect.any(String),
        webhook_id: world.webhook.id,
        event: 'receipt.created',
        state: 'pending',
        next_attempt_at: at(60),
        created_at: at(0),
        attempts: [{ at: at(0), status_code: 500, error: null, duration_ms: 0 }],
      },
    ]);
    const other = (await world.call('POST', '/_sandbox/accounts')).body as { token: string };
    expect(dataOf(await world.call('GET', '/_sandbox/deliveries', { token: other.token }))).toEqual([]);
    expect((await world.call('GET', '/_sandbox/deliveries')).status).toBe(401);
  });
});

describe('POST /_sandbox/webhooks/{id}/ping', () => {
  it('makes a ping delivery to the endpoint, whatever it takes, and answers after its first attempt', async () => {
    const world = await withEndpoint(['receipt.deleted']);
    const response = await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    expect(response.status).toBe(200);
    const delivery = dataOf<SandboxDelivery>(response);
    expect(delivery).toEqual({
      id: world.transport.requests[0]?.headers['X-SVC-Delivery'],
      webhook_id: world.webhook.id,
      event: 'ping',
      state: 'succeeded',
      next_attempt_at: null,
      created_at: at(0),
      attempts: [{ at: at(0), status_code: 200, error: null, duration_ms: 0 }],
    });
    const [request] = world.transport.requests;
    expect(request?.headers['X-SVC-Event']).toBe('ping');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      event: 'ping',
      timestamp: at(0),
      data: { webhook_id: world.webhook.id, message: 'Webhook test ping.' },
    });
    expect(await world.deliveries()).toEqual([delivery]);
  });

  it('leaves a failed ping pending, retried like any delivery', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ error: 'Connection refused.' });
    const delivery = dataOf<SandboxDelivery>(await world.control('POST', `/webhooks/${world.webhook.id}/ping`));
    expect(delivery).toMatchObject({
      state: 'pending',
      next_attempt_at: at(60),
      attempts: [{ status_code: null, error: 'Connection refused.' }],
    });
    world.transport.respond = () => ({ status: 200 });
    await world.advance(60);
    expect((await world.deliveries())[0]).toMatchObject({
      state: 'succeeded',
      attempts: [{}, { at: at(60), status_code: 200 }],
    });
  });

  it("answers 404 for an unknown or another account's endpoint, 422 for a disabled one, 401 without a token", async () => {
    const world = await withEndpoint();
    expect((await world.control('POST', '/webhooks/99/ping')).status).toBe(404);
    const other = (await world.call('POST', '/_sandbox/accounts')).body as { token: string };
    expect(
      (await world.call('POST', `/_sandbox/webhooks/${world.webhook.id}/ping`, { token: other.token })).status,
    ).toBe(404);
    expect((await world.call('POST', `/_sandbox/webhooks/${world.webhook.id}/ping`)).status).toBe(401);
    world.transport.respond = () => ({ status: 500 });
    for (let n = 0; n < 10; n += 1) await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    const version = world.core.version;
    const refused = await world.control('POST', `/webhooks/${world.webhook.id}/ping`);
    expect(errorsOf(refused)).toEqual({
      webhook_id: [
        `The webhook endpoint ${world.webhook.id} is disabled: enable it with POST /_sandbox/webhooks/${world.webhook.id}/enable before testing it.`,
      ],
    });
    expect(world.core.version).toBe(version);
    expect(world.transport.requests).toHaveLength(10);
  });
});

describe('POST /_sandbox/deliveries/{id}/redeliver', () => {
  it('makes one more attempt of a succeeded delivery, same id and body; a failure leaves it succeeded', async () => {
    const world = await withEndpoint();
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const [delivery] = await world.deliveries();
    world.transport.respond = () => ({ status: 410 });
    world.clock.ms += 2000;
    const response = await world.control('POST', `/deliveries/${delivery?.id}/redeliver`);
    expect(response.status).toBe(200);
    expect(dataOf(response)).toEqual({
      ...delivery,
      attempts: [...(delivery?.attempts ?? []), { at: at(2), status_code: 410, error: null, duration_ms: 0 }],
    });
    expect(world.transport.requests[1]).toEqual(world.transport.requests[0]);
    expect(world.endpoint()?.consecutive_failures).toBe(1);
  });

  it('makes a pending delivery succeeded on a 2xx and drops its scheduled retry', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const [delivery] = await world.deliveries();
    const failed = dataOf<SandboxDelivery>(await world.control('POST', `/deliveries/${delivery?.id}/redeliver`));
    expect(failed).toMatchObject({ state: 'pending', next_attempt_at: at(60) });
    expect(failed.attempts).toHaveLength(2);
    world.transport.respond = () => ({ status: 200 });
    const succeeded = dataOf<SandboxDelivery>(
      await world.control('POST', `/deliveries/${delivery?.id.toUpperCase()}/redeliver`),
    );
    expect(succeeded).toMatchObject({ state: 'succeeded', next_attempt_at: null });
    await world.advance(86_400);
    expect(world.transport.requests).toHaveLength(3);
  });

  it('makes a failed delivery succeeded on a 2xx', async () => {
    const world = await withEndpoint();
    world.transport.respond = () => ({ status: 500 });
    await world.receipt();
    await world.advance(2 * 86_400);
    const [delivery] = await world.deliveries();
    expect(delivery?.state).toBe('failed');
    world.transport.respond = () => ({ status: 202 });
    expect(dataOf(await world.control('POST', `/deliveries/${delivery?.id}/redeliver`))).toMatchObject({
      state: 'succeeded',
    });
    expect(world.endpoint()?.consecutive_failures).toBe(0);
  });

  it('answers 422 when the endpoint was deleted, with nothing sent', async () => {
    const world = await withEndpoint();
    await world.receipt();
    await world.api('DELETE', `/webhooks/${world.webhook.id}`);
    const [delivery] = await world.deliveries();
    expect(delivery?.state).toBe('cancelled');
    const response = await world.control('POST', `/deliveries/${delivery?.id}/redeliver`);
    expect(errorsOf(response)).toEqual({
      webhook_id: [`The webhook endpoint ${world.webhook.id} of this delivery was deleted.`],
    });
    expect(world.transport.requests).toEqual([]);
  });

  it("answers 404 for an unknown id, a path that is no UUID or another account's delivery, 401 without a token", async () => {
    const world = await withEndpoint();
    await world.receipt();
    const [delivery] = await world.deliveries();
    const noSuch = (id: string) => ({
      message: `The account has no delivery ${id}: a delivery's id is the UUID that GET /_sandbox/deliveries lists, and X-SVC-Delivery carries.`,
    });
    const unknown = await world.control('POST', '/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f/redeliver');
    expect(unknown).toEqual({ status: 404, headers: {}, body: noSuch('0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f') });
    // Whatever stands where the id goes is answered as an id that names no delivery.
    expect(await world.control('POST', '/deliveries/1/redeliver')).toEqual({
      status: 404,
      headers: {},
      body: noSuch('1'),
    });
    expect((await world.control('POST', '/deliveries/not-a-uuid/redeliver')).body).toEqual(noSuch('not-a-uuid'));
    expect((await world.control('GET', `/deliveries/${delivery?.id}/redeliver`)).body).toEqual({
      message: `The route GET /_sandbox/deliveries/${delivery?.id}/redeliver could not be found.`,
    });
    const other = (await world.call('POST', '/_sandbox/accounts')).body as { token: string };
    expect(
      (await world.call('POST', `/_sandbox/deliveries/${delivery?.id}/redeliver`, { token: other.token })).status,
    ).toBe(404);
    expect((await world.call('POST', `/_sandbox/deliveries/${delivery?.id}/redeliver`)).status).toBe(401);
    expect(world.transport.requests).toEqual([]);
  });
});

describe('the outbox', () => {
  it('writes one pending delivery per matching enabled endpoint in the same change as the receipt', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/webhooks', { body: { url: 'https://b.example.com', events: ['receipt.disposed'] } });
    const version = core.version;
    const receipt = dataOf(await api('POST', '/receipts', { body: receiptBody() }));
    expect(core.version).toBe(version + 1);
    const [delivery, ...others] = core.snapshot().deliveries;
    expect(others).toEqual([]);
    expect(delivery).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      webhook_id: 1,
      event: 'receipt.created',
      state: 'pending',
      next_attempt_at: '2025-03-14T15:04:05Z',
      created_at: '2025-03-14T15:04:05Z',
      attempts: [],
      account_id: 1,
      body: JSON.stringify({ event: 'receipt.created', timestamp: '2025-03-14T15:04:05Z', data: receipt }),
      scheduled_attempts: 0,
    });
  });

  it('fires updated, disposed and deleted with the receipt after the change; deleted adds deleted_at', async () => {
    const { api, core, clock } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    clock.ms += 1000;
    const updated = dataOf(await api('PUT', '/receipts/1', { body: { model: 'B' } }));
    await api('PUT', '/receipts/1', { body: { model: 'B' } });
    const disposed = dataOf(await api('POST', '/receipts/1/dispose', { body: dispositionBody() }));
    clock.ms += 1000;
    await api('DELETE', '/receipts/1');
    const bodies = core.snapshot().deliveries.map((delivery) => JSON.parse(delivery.body));
    expect(bodies.map((body) => body.event)).toEqual([
      'receipt.created',
      'receipt.updated',
      'receipt.disposed',
      'receipt.deleted',
    ]);
    expect(bodies[1].data).toEqual(updated);
    expect(bodies[2].data).toEqual(disposed);
    expect(bodies[3]).toEqual({
      event: 'receipt.deleted',
      timestamp: '2025-03-14T15:04:07Z',
      data: { ...disposed, deleted_at: '2025-03-14T15:04:07Z' },
    });
  });

  it('writes nothing for refused requests, for endpoints of other accounts, or without endpoints', async () => {
    const first = await withAccount();
    await first.api('POST', '/receipts', { body: receiptBody() });
    const second = await first.call('POST', '/_sandbox/accounts', {});
    const token = (second.body as { token: string }).token;
    await first.call('POST', '/rest/v1/webhooks', { token, body: { url: 'https://a.example.com', events: ['*'] } });
    await first.api('POST', '/receipts', { body: receiptBody() });
    await first.call('POST', '/rest/v1/receipts', { token, body: {} });
    expect(first.core.snapshot().deliveries).toEqual([]);
  });

  it('cancels the pending deliveries of a deleted endpoint', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/webhooks', { body: { url: 'https://b.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('DELETE', '/webhooks/1');
    const states = core
      .snapshot()
      .deliveries.map((delivery) => [delivery.webhook_id, delivery.state, delivery.next_attempt_at]);
    expect(states).toEqual([
      [1, 'cancelled', null],
      [2, 'pending', '2025-03-14T15:04:05Z'],
    ]);
  });
});
