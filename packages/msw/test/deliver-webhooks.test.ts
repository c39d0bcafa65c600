import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockLogbook } from '../src/index';

const BASE_URL = 'https://logbook.example.test/rest/v1';
const HOOK_URL = 'https://hooks.example.test/in';
const mock = createMockLogbook({ baseUrl: BASE_URL, deliverWebhooks: true });
const received: string[] = [];
const server = setupServer(
  ...mock.handlers,
  http.post(HOOK_URL, async ({ request }) => {
    received.push(await request.text());
    return new HttpResponse(null, { status: 500 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('createMockLogbook({ deliverWebhooks: true }) POSTs each attempt to the endpoint with fetch and captures it', async () => {
  const { token } = mock.createAccount();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await fetch(`${BASE_URL}/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: HOOK_URL, events: ['*'] }),
  });
  const ping = await fetch('https://logbook.example.test/_sandbox/webhooks/1/ping', { method: 'POST', headers });
  expect(ping.status).toBe(200);
  expect(received).toHaveLength(1);
  expect(mock.deliveries).toHaveLength(1);
  expect(mock.deliveries[0]?.body).toBe(received[0]);
});
