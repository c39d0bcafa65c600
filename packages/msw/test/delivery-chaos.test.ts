import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockLogbook, MockLogbookError } from '../src/index';
import { receiptBody } from '@fflkit/test-fixtures';

const ORIGIN = 'https://logbook.example.test';
const BASE_URL = `${ORIGIN}/rest/v1`;
const HOOK_URL = 'https://hooks.example.test/chaos';
// A wall clock that moves only when a test moves it.
let nowMs = Date.parse('2025-03-14T15:00:00Z');
const mock = createMockLogbook({ baseUrl: BASE_URL, deliverWebhooks: true, now: () => nowMs });

/** What reached the receiver, in the order it came: the event, the receipt's serial, the delivery. */
const received: { event: string; serial: string | undefined; delivery: string }[] = [];
const server = setupServer(
  ...mock.handlers,
  http.post(HOOK_URL, async ({ request }) => {
    const body = (await request.json()) as { event: string; data: { serial_number?: string } };
    received.push({
      event: body.event,
      serial: body.data.serial_number,
      delivery: request.headers.get('x-svc-delivery') ?? '',
    });
    return new HttpResponse(null, { status: 200 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  mock.reset();
  received.length = 0;
});

/** An account with one endpoint for every event at HOOK_URL, and a way to record receipts. */
async function endpoint() {
  const { token } = mock.createAccount();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${BASE_URL}/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: HOOK_URL, events: ['*'] }),
  });
  const { data } = (await created.json()) as { data: { id: number } };
  const receipt = async (serial: string) => {
    const response = await fetch(`${BASE_URL}/receipts`, {
      method: 'POST',
      headers,
      body: JSON.stringify(receiptBody({ serial_number: serial })),
    });
    expect(response.status).toBe(201);
  };
  return { token, id: data.id, headers, receipt };
}

describe('mock.webhooks: delivery chaos on the MSW face', () => {
  it('setChaos holds a window and delivers it, shuffled, before the answer of the request that fills it', async () => {
    const { token, id, receipt } = await endpoint();
    const state = await mock.webhooks.setChaos(token, id, { reorder: { window: 4 }, seed: 5 });
    expect(state.chaos).toEqual({ reorder: { window: 4, hold_ms: 1000 }, duplicate: 0, delay_ms: 0, seed: 5 });
    for (const serial of ['SN1', 'SN2', 'SN3']) await receipt(serial);
    expect(received).toEqual([]);
    await receipt('SN4');
    // The order the sandbox sends for the same seed and events.
    expect(received.map((arrival) => arrival.serial)).toEqual(['SN3', 'SN4', 'SN2', 'SN1']);
    expect(mock.deliveries.map((delivery) => JSON.parse(delivery.body).data.serial_number)).toEqual([
      'SN3',
      'SN4',
      'SN2',
      'SN1',
    ]);
  });

  it('delivers a window that its hold released at the first request answered after it fell due', async () => {
    const { token, id, headers, receipt } = await endpoint();
    await mock.webhooks.setChaos(token, id, { reorder: { window: 4, hold_ms: 500 }, seed: 5 });
    await receipt('SN1');
    await receipt('SN2');
    nowMs += 500;
    expect(received).toEqual([]);
    await fetch(`${BASE_URL}/books`, { headers });
    expect(received.map((arrival) => arrival.serial)).toEqual(['SN2', 'SN1']);
  });

  it('sends every attempt of a duplicated delivery twice, the same X-SVC-Delivery, captured twice', async () => {
    const { token, id, headers } = await endpoint();
    await mock.webhooks.setChaos(token, id, { duplicate: 1 });
    const ping = await fetch(`${ORIGIN}/_sandbox/webhooks/${id}/ping`, { method: 'POST', headers });
    const { data } = (await ping.json()) as {
      data: { id: string; attempts: { status_code: number; duplicate?: true }[] };
    };
    expect(data.attempts).toEqual([
      expect.objectContaining({ status_code: 200 }),
      expect.objectContaining({ status_code: 200, duplicate: true }),
    ]);
    expect(received.map((arrival) => arrival.delivery)).toEqual([data.id, data.id]);
    expect(mock.deliveries).toHaveLength(2);
    expect(mock.deliveries[1]).toEqual(mock.deliveries[0]);
  });

  it('delays a delivery on the account clock: clock.advance sends it', async () => {
    const { token, id, receipt } = await endpoint();
    await mock.webhooks.setChaos(token, id, { delay_ms: 1000 });
    await receipt('SN1');
    expect(received).toEqual([]);
    await mock.clock.advance(token, 1);
    expect(received.map((arrival) => arrival.serial)).toEqual(['SN1']);
  });

  it("clearChaos clears it; a refused setting or an unknown endpoint rejects with the control API's answer", async () => {
    const { token, id, receipt } = await endpoint();
    await mock.webhooks.setChaos(token, id, { delay_ms: 60_000 });
    await expect(mock.webhooks.clearChaos(token, id)).resolves.toBeUndefined();
    await receipt('SN1');
    expect(received.map((arrival) => arrival.serial)).toEqual(['SN1']);

    const refused = await mock.webhooks.setChaos(token, id, { delay_ms: -1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockLogbookError);
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: { delay_ms: ['The delay ms field must be at least 0.'] } },
    });
    await expect(mock.webhooks.clearChaos(token, id + 100)).rejects.toMatchObject({ status: 404 });
  });
});
