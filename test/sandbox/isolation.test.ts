import { startSandbox } from '@fflkit/sandbox';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../support/sandbox-client';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: 0 });
});
afterAll(async () => {
  await sandbox?.stop();
});

it("one account's token gets 404 for another's ids and sees none of its data anywhere", async () => {
  const owner = (await sandbox.createAccount({ books: ['Consignments'] })).token;
  const stranger = (await sandbox.createAccount()).token;
  const api = (token: string, method: string, path: string, body?: unknown) =>
    call(sandbox.apiUrl, method, path, { token, body });
  const control = (token: string, method: string, path: string, body?: unknown) =>
    call(sandbox.url, method, path, { token, body });

  const serial = 'ISOLATED-0001';
  const created = await api(owner, 'POST', '/receipts', receiptBody({ serial_number: serial, model: 'Model 1' }));
  const id = (created.body as { data: { id: number } }).data.id;
  const hook = await api(owner, 'POST', '/webhooks', { url: 'https://hooks.example.com/owner', events: ['*'] });
  const hookId = (hook.body as { data: { id: number } }).data.id;
  const extraToken = await control(owner, 'POST', '/_sandbox/tokens', { permissions: ['read'] });
  const tokenId = (extraToken.body as { data: { id: number } }).data.id;

  const byId = [
    await api(stranger, 'GET', `/receipts/${id}`),
    await api(stranger, 'PUT', `/receipts/${id}`, { model: 'Stolen' }),
    await api(stranger, 'POST', `/receipts/${id}/dispose`, dispositionWithAddressBody()),
    await api(stranger, 'DELETE', `/receipts/${id}`),
    await api(stranger, 'DELETE', `/webhooks/${hookId}`),
    await control(stranger, 'GET', `/_sandbox/receipts/${id}/audit`),
    await control(stranger, 'POST', `/_sandbox/receipts/${id}/documents`, {
      name: 'a.pdf',
      mime_type: 'application/pdf',
      size: 1,
    }),
    await control(stranger, 'DELETE', `/_sandbox/tokens/${tokenId}`),
  ];
  for (const response of byId) expect(response.status).toBe(404);

  const lists = [
    await api(stranger, 'GET', '/receipts?per_page=200'),
    await api(stranger, 'GET', '/inventory?per_page=200'),
    await call(sandbox.apiUrl, 'GET', '/search', { token: stranger, query: { q: serial } }),
    await api(stranger, 'GET', '/webhooks'),
    await api(stranger, 'GET', '/books'),
  ];
  for (const response of lists) {
    expect(response.status).toBe(200);
    const text = JSON.stringify((response.body as { data: unknown }).data);
    expect(text).not.toContain(serial);
    expect(text).not.toContain('hooks.example.com/owner');
    expect(text).not.toContain('Consignments');
  }
  expect((lists[0]!.body as { meta: { total: number } }).meta.total).toBe(0);

  // The stranger's request log holds its own requests only, newest first: none of the owner's.
  const log = await control(stranger, 'GET', '/_sandbox/requests');
  const entries = (log.body as { data: Array<{ method: string; path: string; status: number }> }).data;
  expect(entries.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
    'GET /rest/v1/books 200',
    'GET /rest/v1/webhooks 200',
    'GET /rest/v1/search 200',
    'GET /rest/v1/inventory 200',
    'GET /rest/v1/receipts 200',
    `DELETE /rest/v1/webhooks/${hookId} 404`,
    `DELETE /rest/v1/receipts/${id} 404`,
    `POST /rest/v1/receipts/${id}/dispose 404`,
    `PUT /rest/v1/receipts/${id} 404`,
    `GET /rest/v1/receipts/${id} 404`,
  ]);

  const still = await api(owner, 'GET', `/receipts/${id}`);
  expect(still.status).toBe(200);
  expect((still.body as { data: { model: string; status: string } }).data).toMatchObject({
    model: 'Model 1',
    status: 'on_hand',
  });
});
