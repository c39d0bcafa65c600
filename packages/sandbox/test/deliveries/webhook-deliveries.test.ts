import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import type { SandboxDelivery } from '@fflkit/types';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index';
import { client, closeAll, openReceiver, openWorld } from './sandbox-world';

afterEach(closeAll);

const hmacHex = (secret: string, body: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');

/** A disposal with a Form 4473 serial in place of the recipient's address. */
const DISPOSAL = { disposition_date: '2025-03-14', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123' };

describe('webhook deliveries of a started sandbox, to a local receiver', () => {
  it('POSTs receipt.created at once, signed, with the headers and body the contract gives', async () => {
    const world = await openWorld();
    const id = await world.receipt();
    await world.receiver.got(1);
    const [request] = world.receiver.received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/hook');
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Logbook-Webhook/1.0',
      'x-svc-event': 'receipt.created',
      'x-svc-delivery': expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      'x-svc-signature': `sha256=${hmacHex(world.secret, request?.body ?? '')}`,
      'content-length': String(Buffer.byteLength(request?.body ?? '')),
    });
    expect(await verify(world.secret, request?.body ?? '', String(request?.headers['x-svc-signature']))).toBe(true);
    expect(await verify('whsec_wrong', request?.body ?? '', String(request?.headers['x-svc-signature']))).toBe(false);
    const receipt = await world.api<{ data: unknown }>('GET', `/receipts/${id}`);
    const body = JSON.parse(request?.body ?? '') as { event: string; timestamp: string; data: unknown };
    expect(body).toEqual({ event: 'receipt.created', timestamp: expect.stringMatching(/Z$/), data: receipt.body.data });
    expect(Object.keys(body)).toEqual(['event', 'timestamp', 'data']);
    await world.advance(1); // waits for the attempt's outcome to be recorded
    expect(await world.deliveries()).toMatchObject([
      {
        id: request?.headers['x-svc-delivery'],
        webhook_id: world.webhook.id,
        event: 'receipt.created',
        state: 'succeeded',
        attempts: [{ status_code: 200, error: null }],
      },
    ]);
  });

  it('sends each event type: created, updated, disposed, deleted and ping, each signed', async () => {
    const world = await openWorld();
    const id = await world.receipt();
    await world.api('PUT', `/receipts/${id}`, { model: 'EX-9 Full Size' });
    await world.api('POST', `/receipts/${id}/dispose`, DISPOSAL);
    await world.api('DELETE', `/receipts/${id}`);
    const ping = await world.control<{ data: SandboxDelivery }>('POST', `/webhooks/${world.webhook.id}/ping`);
    expect(ping.body.data).toMatchObject({ event: 'ping', state: 'succeeded', attempts: [{ status_code: 200 }] });
    await world.receiver.got(5);
    const events = world.receiver.received.map(
      (request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> },
    );
    expect(events.map((event) => event.event).sort()).toEqual([
      'ping',
      'receipt.created',
      'receipt.deleted',
      'receipt.disposed',
      'receipt.updated',
    ]);
    for (const request of world.receiver.received) {
      expect(request.headers['x-svc-event']).toBe((JSON.parse(request.body) as { event: string }).event);
      expect(await verify(world.secret, request.body, String(request.headers['x-svc-signature']))).toBe(true);
    }
    const byEvent = new Map(events.map((event) => [event.event, event.data]));
    expect(byEvent.get('receipt.updated')).toMatchObject({ id, model: 'EX-9 Full Size' });
    expect(byEvent.get('receipt.disposed')).toMatchObject({
      id,
      status: 'disposed',
      disposition: { disposed_to: 'John Q. Example' },
    });
    expect(byEvent.get('receipt.deleted')).toMatchObject({ id, deleted_at: expect.any(String) });
    expect(byEvent.get('ping')).toEqual({ webhook_id: world.webhook.id, message: 'Webhook test ping.' });
  });

  it('sends each endpoint only the events it subscribes to: * or a subset', async () => {
    const world = await openWorld({}, ['*']);
    await world.endpoint(`${world.receiver.url}/subset`, ['receipt.disposed', 'receipt.deleted']);
    const id = await world.receipt();
    await world.api('PUT', `/receipts/${id}`, { model: 'EX-9 Full Size' });
    await world.api('POST', `/receipts/${id}/dispose`, DISPOSAL);
    await world.api('DELETE', `/receipts/${id}`);
    await world.receiver.got(6);
    await world.advance(1);
    const events = (path: string) =>
      world.receiver.received
        .filter((request) => request.path === path)
        .map((request) => request.headers['x-svc-event'])
        .sort();
    expect(events('/hook')).toEqual(['receipt.created', 'receipt.deleted', 'receipt.disposed', 'receipt.updated']);
    expect(events('/subset')).toEqual(['receipt.deleted', 'receipt.disposed']);
    expect(world.receiver.received).toHaveLength(6);
  });

  it('delivers many events, each once, with its own delivery id', async () => {
    const world = await openWorld();
    await Promise.all(Array.from({ length: 100 }, () => world.receipt()));
    await world.receiver.got(100);
    await world.advance(1);
    const ids = new Set(world.receiver.received.map((request) => request.headers['x-svc-delivery']));
    expect(ids.size).toBe(100);
    expect(world.receiver.received).toHaveLength(100);
    expect((await world.deliveries()).every((delivery) => delivery.state === 'succeeded')).toBe(true);
  });
});

describe('failed attempts and retries', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h on the account clock, same id and bytes', async () => {
    // A wall clock that stands still, so that only the advances move the account's clock.
    const world = await openWorld({ now: () => Date.UTC(2025, 2, 14, 15, 4, 5, 500) });
    world.receiver.reply = () => ({ status: 500 });
    await world.receipt();
    await world.receiver.got(1);
    for (const [count, seconds] of [
      [2, 60],
      [3, 300],
      [4, 1800],
      [5, 7200],
      [6, 18_000],
      [7, 36_000],
      [8, 36_000],
    ] as const) {
      await world.advance(seconds - 1);
      expect(world.receiver.received).toHaveLength(count - 1);
      await world.advance(1);
      expect(world.receiver.received).toHaveLength(count);
    }
    await world.advance(30 * 86_400);
    expect(world.receiver.received).toHaveLength(8);
    const [delivery] = await world.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', next_attempt_at: null });
    const times = delivery?.attempts.map(
      (attempt) => (Date.parse(attempt.at) - Date.UTC(2025, 2, 14, 15, 4, 5)) / 1000,
    );
    expect(times).toEqual([0, 60, 360, 2160, 9360, 27360, 63360, 99360]);
    expect(delivery?.attempts.every((attempt) => attempt.status_code === 500 && attempt.error === null)).toBe(true);
    const [first, ...retries] = world.receiver.received;
    for (const retry of retries) {
      expect(retry.body).toBe(first?.body);
      expect(retry.headers['x-svc-delivery']).toBe(first?.headers['x-svc-delivery']);
      expect(retry.headers['x-svc-signature']).toBe(first?.headers['x-svc-signature']);
    }
  });

  it('counts a 301 as a failure and does not follow it', async () => {
    const world = await openWorld();
    world.receiver.reply = (request) =>
      request.path === '/hook'
        ? { status: 301, headers: { location: `${world.receiver.url}/moved` } }
        : { status: 200 };
    await world.receipt();
    await world.receiver.got(1);
    await world.advance(1);
    expect(await world.deliveries()).toMatchObject([
      { state: 'pending', attempts: [{ status_code: 301, error: null }] },
    ]);
    expect(world.receiver.received.map((request) => request.path)).toEqual(['/hook']);
  });

  it('counts a refused connection as a failure, with the reason', async () => {
    const receiver = await openReceiver();
    const closedUrl = `${receiver.url}/hook`;
    await receiver.close();
    const world = await openWorld();
    const { data } = await world.endpoint(closedUrl);
    const ping = await world.control<{ data: SandboxDelivery }>('POST', `/webhooks/${data.id}/ping`);
    expect(ping.body.data).toMatchObject({
      state: 'pending',
      attempts: [{ status_code: null, error: 'Connection refused.' }],
    });
  });

  it('fails an attempt the receiver does not answer within the time-out', async () => {
    const world = await openWorld({ webhookTimeoutMs: 200 });
    world.receiver.reply = () => 'hang';
    const ping = await world.control<{ data: SandboxDelivery }>('POST', `/webhooks/${world.webhook.id}/ping`);
    const attempt = ping.body.data.attempts[0];
    expect(attempt).toMatchObject({ status_code: null, error: 'No answer within 0.2 seconds.' });
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(195);
    expect(ping.body.data.state).toBe('pending');
  });

  it('fails an attempt after 5 s without an answer by default', async () => {
    const receiver = await openReceiver(() => 'hang');
    const sandbox = await startSandbox();
    try {
      const { token } = await sandbox.createAccount();
      const world = client(sandbox.url, token);
      const { data } = await world.endpoint(`${receiver.url}/hook`);
      const ping = await world.control<{ data: SandboxDelivery }>('POST', `/webhooks/${data.id}/ping`);
      expect(ping.body.data.attempts[0]).toMatchObject({ status_code: null, error: 'No answer within 5 seconds.' });
      expect(ping.body.data.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(4990);
    } finally {
      await sandbox.stop();
    }
  }, 15_000);
});

describe('disabling after 10 consecutive failures', () => {
  it('disables the endpoint, cancels its retries and sends nothing until it is enabled, which resets the count', async () => {
    const world = await openWorld();
    world.receiver.reply = () => ({ status: 503 });
    for (let n = 0; n < 10; n += 1) await world.receipt();
    await world.receiver.got(10);
    await world.advance(1);
    const listed = await world.api<{ data: { enabled: boolean }[] }>('GET', '/webhooks');
    expect(listed.body.data).toMatchObject([{ id: world.webhook.id, enabled: false }]);
    expect((await world.deliveries()).map((delivery) => delivery.state)).toEqual(Array(10).fill('cancelled'));

    await world.receipt();
    await world.advance(7 * 86_400);
    expect(world.receiver.received).toHaveLength(10);
    expect((await world.control('POST', `/webhooks/${world.webhook.id}/ping`)).status).toBe(422);
    expect(await world.deliveries()).toHaveLength(10);

    const enabled = await world.control<{ data: { enabled: boolean } }>('POST', `/webhooks/${world.webhook.id}/enable`);
    expect(enabled).toMatchObject({ status: 200, body: { data: { enabled: true } } });
    await world.receipt();
    await world.receiver.got(11);
    await world.advance(1);
    // Without the reset this 11th consecutive failure would have disabled it again.
    expect((await world.api<{ data: { enabled: boolean }[] }>('GET', '/webhooks')).body.data[0]?.enabled).toBe(true);
    world.receiver.reply = () => ({ status: 200 });
    await world.advance(60);
    expect(world.receiver.received).toHaveLength(12);
    expect((await world.deliveries())[0]).toMatchObject({ state: 'succeeded' });
  });
});

describe('the dashboard actions', () => {
  it('redelivers a delivery now, with the same id and body, and answers after the attempt', async () => {
    const world = await openWorld();
    world.receiver.reply = () => ({ status: 500 });
    await world.receipt();
    await world.receiver.got(1);
    await world.advance(1);
    const [delivery] = await world.deliveries();
    world.receiver.reply = () => ({ status: 200 });
    const redelivered = await world.control<{ data: SandboxDelivery }>('POST', `/deliveries/${delivery?.id}/redeliver`);
    expect(world.receiver.received).toHaveLength(2);
    expect(redelivered).toMatchObject({
      status: 200,
      body: {
        data: {
          id: delivery?.id,
          state: 'succeeded',
          next_attempt_at: null,
          attempts: [{ status_code: 500 }, { status_code: 200 }],
        },
      },
    });
    const [first, second] = world.receiver.received;
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['x-svc-delivery']).toBe(delivery?.id);
    await world.advance(86_400);
    expect(world.receiver.received).toHaveLength(2);
  });

  it('pings an endpoint whatever it subscribes to, and answers after the attempt', async () => {
    const world = await openWorld({}, ['receipt.deleted']);
    const ping = await world.control<{ data: SandboxDelivery }>('POST', `/webhooks/${world.webhook.id}/ping`);
    expect(world.receiver.received).toHaveLength(1);
    const [request] = world.receiver.received;
    expect(request?.headers['x-svc-event']).toBe('ping');
    expect(request?.headers['x-svc-delivery']).toBe(ping.body.data.id);
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      event: 'ping',
      data: { webhook_id: world.webhook.id, message: 'Webhook test ping.' },
    });
    expect(ping.body.data).toMatchObject({ event: 'ping', state: 'succeeded', next_attempt_at: null });
  });
});
