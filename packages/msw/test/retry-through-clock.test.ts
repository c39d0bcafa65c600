import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockLogbook } from '../src/index';

const ORIGIN = 'https://logbook.example.test';
const BASE_URL = `${ORIGIN}/rest/v1`;
const HOOK_URL = 'https://hooks.example.test/retry';
// A wall clock that stands still, so that the retry falls due exactly 60 s after the first attempt.
const mock = createMockLogbook({
  baseUrl: BASE_URL,
  deliverWebhooks: true,
  now: () => Date.parse('2025-03-14T15:00:00.250Z'),
});

// The receiver fails while `receiverDown` is true, as a real one might during a deploy.
let receiverDown = true;
const received: string[] = [];
const server = setupServer(
  ...mock.handlers,
  http.post(HOOK_URL, ({ request }) => {
    received.push(request.headers.get('x-svc-delivery') ?? '');
    return new HttpResponse(null, { status: receiverDown ? 503 : 204 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

interface DeliveryView {
  id: string;
  state: string;
  attempts: { status_code: number | null }[];
}

async function listDeliveries(token: string): Promise<DeliveryView[]> {
  const response = await fetch(`${ORIGIN}/_sandbox/deliveries`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { data: DeliveryView[] }).data;
}

it('clock.advance(token, 60) makes the first retry of a failed delivery, with the same X-SVC-Delivery', async () => {
  const { token } = mock.createAccount();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await fetch(`${BASE_URL}/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: HOOK_URL, events: ['*'] }),
  });
  const ping = await fetch(`${ORIGIN}/_sandbox/webhooks/1/ping`, { method: 'POST', headers });
  expect(ping.status).toBe(200);

  expect(received).toHaveLength(1);
  const [pending] = await listDeliveries(token);
  expect(pending?.state).toBe('pending');
  expect(pending?.attempts.map((attempt) => attempt.status_code)).toEqual([503]);

  // Not yet due 59 s later.
  receiverDown = false;
  await mock.clock.advance(token, 59);
  expect(received).toHaveLength(1);

  await mock.clock.advance(token, 1);
  expect(received).toEqual([pending?.id, pending?.id]);
  const [succeeded] = await listDeliveries(token);
  expect(succeeded?.state).toBe('succeeded');
  expect(succeeded?.attempts.map((attempt) => attempt.status_code)).toEqual([503, 204]);
  expect(mock.deliveries.map((delivery) => delivery.headers['X-SVC-Delivery'])).toEqual([pending?.id, pending?.id]);
});
