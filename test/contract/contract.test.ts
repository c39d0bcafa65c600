import { startSandbox } from '@boundbook/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractValidator, type ObservedResponse } from '../support/contract-validator';
import { dispositionBody, receiptBody } from '../support/fixtures';
import { call, type CallOptions } from '../support/sandbox-client';

// Every (operation, status) pair that openapi/openapi.yaml and openapi/sandbox.yaml document is
// produced against a real sandbox over HTTP and checked with a JSON Schema validator.

const contract = new ContractValidator(new URL('../../openapi/', import.meta.url));
let sandbox: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const api = (method: string, path: string, options?: CallOptions) => call(sandbox.apiUrl, method, path, options);
const control = (method: string, path: string, options?: CallOptions) => call(sandbox.url, method, path, options);
const tooLarge = { rawBody: JSON.stringify({ padding: 'x'.repeat(1_048_577) }) };

async function account(type: 'dealer' | 'importer' | 'collector' = 'dealer') {
  const { token } = await sandbox.createAccount({ account_type: type });
  return token;
}
async function tokenWith(owner: string, permissions: Array<'read' | 'write' | 'delete'>) {
  const created = await control('POST', '/_sandbox/tokens', { token: owner, body: { permissions } });
  return (created.body as { token: string }).token;
}
async function receipt(token: string) {
  const created = await api('POST', '/receipts', { token, body: receiptBody() });
  return (created.body as { data: { id: number } }).data.id;
}
async function webhook(token: string) {
  const created = await api('POST', '/webhooks', { token, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
  return (created.body as { data: { id: number } }).data.id;
}
/** Pings a new endpoint (at a port that refuses, so the attempt fails): its delivery's id. */
async function pinged(token: string) {
  const webhookId = await webhook(token);
  const ping = await control('POST', `/_sandbox/webhooks/${webhookId}/ping`, { token });
  return { webhookId, deliveryId: (ping.body as { data: { id: string } }).data.id };
}
/** An endpoint disabled by 10 failed pings in a row. */
async function disabledWebhook(token: string) {
  const { webhookId } = await pinged(token);
  for (let i = 1; i < 10; i += 1) await control('POST', `/_sandbox/webhooks/${webhookId}/ping`, { token });
  return webhookId;
}
/** Spends a fresh token's whole window, so its next request is answered 429. */
async function exhausted() {
  const token = await account();
  for (let i = 0; i < 60; i += 1) await api('GET', '/books', { token });
  return token;
}

type Case = [operationId: string, status: number, run: () => Promise<ObservedResponse>];

const serviceCases: Case[] = [
  ['listReceipts', 200, async () => { const t = await account(); await receipt(t); return api('GET', '/receipts', { token: t }); }],
  ['listReceipts', 401, () => api('GET', '/receipts')],
  ['listReceipts', 403, async () => api('GET', '/receipts', { token: await tokenWith(await account(), ['write']) })],
  ['listReceipts', 422, async () => api('GET', '/receipts', { token: await account(), query: { per_page: '201' } })],
  ['listReceipts', 429, async () => api('GET', '/receipts', { token: await exhausted() })],
  ['createReceipt', 201, async () => api('POST', '/receipts', { token: await account(), body: receiptBody() })],
  ['createReceipt', 401, () => api('POST', '/receipts', { token: 'sbx_unknown', body: receiptBody() })],
  ['createReceipt', 403, async () => api('POST', '/receipts', { token: await tokenWith(await account(), ['read']), body: receiptBody() })],
  ['createReceipt', 413, async () => api('POST', '/receipts', { token: await account(), ...tooLarge })],
  ['createReceipt', 422, async () => api('POST', '/receipts', { token: await account(), body: {} })],
  ['createReceipt', 429, async () => api('POST', '/receipts', { token: await exhausted(), body: receiptBody() })],
  ['getReceipt', 200, async () => { const t = await account(); return api('GET', `/receipts/${await receipt(t)}`, { token: t }); }],
  ['getReceipt', 401, () => api('GET', '/receipts/1')],
  ['getReceipt', 403, async () => api('GET', '/receipts/1', { token: await account('collector') })],
  ['getReceipt', 404, async () => api('GET', '/receipts/999999', { token: await account() })],
  ['getReceipt', 429, async () => api('GET', '/receipts/1', { token: await exhausted() })],
  ['updateReceipt', 200, async () => { const t = await account(); return api('PUT', `/receipts/${await receipt(t)}`, { token: t, body: { model: 'Model 2' } }); }],
  ['updateReceipt', 401, () => api('PUT', '/receipts/1', { body: { model: 'Model 2' } })],
  ['updateReceipt', 403, async () => api('PUT', '/receipts/1', { token: await tokenWith(await account(), ['read']), body: {} })],
  ['updateReceipt', 404, async () => api('PUT', '/receipts/999999', { token: await account(), body: { model: 'Model 2' } })],
  ['updateReceipt', 413, async () => api('PUT', '/receipts/1', { token: await account(), ...tooLarge })],
  ['updateReceipt', 422, async () => { const t = await account(); return api('PUT', `/receipts/${await receipt(t)}`, { token: t, body: { book: 'Other' } }); }],
  ['updateReceipt', 429, async () => api('PUT', '/receipts/1', { token: await exhausted(), body: {} })],
  ['deleteReceipt', 204, async () => { const t = await account(); return api('DELETE', `/receipts/${await receipt(t)}`, { token: t }); }],
  ['deleteReceipt', 401, () => api('DELETE', '/receipts/1')],
  ['deleteReceipt', 403, async () => api('DELETE', '/receipts/1', { token: await tokenWith(await account(), ['read', 'write']) })],
  ['deleteReceipt', 404, async () => api('DELETE', '/receipts/999999', { token: await account() })],
  ['deleteReceipt', 429, async () => api('DELETE', '/receipts/1', { token: await exhausted() })],
  ['disposeReceipt', 200, async () => { const t = await account(); return api('POST', `/receipts/${await receipt(t)}/dispose`, { token: t, body: dispositionBody() }); }],
  ['disposeReceipt', 401, () => api('POST', '/receipts/1/dispose', { body: dispositionBody() })],
  ['disposeReceipt', 403, async () => api('POST', '/receipts/1/dispose', { token: await tokenWith(await account(), ['read']), body: dispositionBody() })],
  ['disposeReceipt', 404, async () => api('POST', '/receipts/999999/dispose', { token: await account(), body: dispositionBody() })],
  ['disposeReceipt', 413, async () => api('POST', '/receipts/1/dispose', { token: await account(), ...tooLarge })],
  ['disposeReceipt', 422, async () => { const t = await account(); return api('POST', `/receipts/${await receipt(t)}/dispose`, { token: t, body: { disposed_to: 'Jordan Example' } }); }],
  ['disposeReceipt', 429, async () => api('POST', '/receipts/1/dispose', { token: await exhausted(), body: dispositionBody() })],
  ['listBooks', 200, async () => api('GET', '/books', { token: await account() })],
  ['listBooks', 401, () => api('GET', '/books', { headers: { authorization: 'Basic abc' } })],
  ['listBooks', 403, async () => api('GET', '/books', { token: await account('collector') })],
  ['listBooks', 429, async () => api('GET', '/books', { token: await exhausted() })],
  ['listInventory', 200, async () => { const t = await account(); await receipt(t); return api('GET', '/inventory', { token: t }); }],
  ['listInventory', 401, () => api('GET', '/inventory')],
  ['listInventory', 403, async () => api('GET', '/inventory', { token: await tokenWith(await account(), []) })],
  ['listInventory', 422, async () => api('GET', '/inventory', { token: await account(), query: { page: '0' } })],
  ['listInventory', 429, async () => api('GET', '/inventory', { token: await exhausted() })],
  ['searchReceipts', 200, async () => { const t = await account(); await receipt(t); return api('GET', '/search', { token: t, query: { q: 'example', field: 'manufacturer' } }); }],
  ['searchReceipts', 401, () => api('GET', '/search', { query: { q: 'x' } })],
  ['searchReceipts', 403, async () => api('GET', '/search', { token: await account('collector'), query: { q: 'x' } })],
  ['searchReceipts', 422, async () => api('GET', '/search', { token: await account() })],
  ['searchReceipts', 429, async () => api('GET', '/search', { token: await exhausted(), query: { q: 'x' } })],
  ['listWebhooks', 200, async () => { const t = await account(); await webhook(t); return api('GET', '/webhooks', { token: t }); }],
  ['listWebhooks', 401, () => api('GET', '/webhooks')],
  ['listWebhooks', 403, async () => api('GET', '/webhooks', { token: await tokenWith(await account(), ['write', 'delete']) })],
  ['listWebhooks', 429, async () => api('GET', '/webhooks', { token: await exhausted() })],
  ['createWebhook', 201, async () => api('POST', '/webhooks', { token: await account(), body: { url: 'https://hooks.example.com/boundbook', events: ['receipt.created', 'receipt.disposed'] } })],
  ['createWebhook', 401, () => api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['*'] } })],
  ['createWebhook', 403, async () => api('POST', '/webhooks', { token: await tokenWith(await account(), ['read']), body: { url: 'https://hooks.example.com/x', events: ['*'] } })],
  ['createWebhook', 413, async () => api('POST', '/webhooks', { token: await account(), ...tooLarge })],
  ['createWebhook', 422, async () => api('POST', '/webhooks', { token: await account(), body: { url: 'ftp://example.com', events: [] } })],
  ['createWebhook', 429, async () => api('POST', '/webhooks', { token: await exhausted(), body: { url: 'https://hooks.example.com/x', events: ['*'] } })],
  ['deleteWebhook', 204, async () => { const t = await account(); return api('DELETE', `/webhooks/${await webhook(t)}`, { token: t }); }],
  ['deleteWebhook', 401, () => api('DELETE', '/webhooks/1')],
  ['deleteWebhook', 403, async () => api('DELETE', '/webhooks/1', { token: await tokenWith(await account(), ['read', 'write']) })],
  ['deleteWebhook', 404, async () => api('DELETE', '/webhooks/999999', { token: await account() })],
  ['deleteWebhook', 429, async () => api('DELETE', '/webhooks/1', { token: await exhausted() })],
];

const controlCases: Case[] = [
  ['createAccount', 201, () => control('POST', '/_sandbox/accounts', { body: { account_type: 'importer', name: 'Example Imports LLC', books: ['Imports'] } })],
  ['createAccount', 413, () => control('POST', '/_sandbox/accounts', tooLarge)],
  ['createAccount', 422, () => control('POST', '/_sandbox/accounts', { body: { account_type: 'bank' } })],
  ['createToken', 201, async () => control('POST', '/_sandbox/tokens', { token: await account(), body: { permissions: ['read'], name: 'Reports' } })],
  ['createToken', 401, () => control('POST', '/_sandbox/tokens', { body: { permissions: ['read'] } })],
  ['createToken', 413, async () => control('POST', '/_sandbox/tokens', { token: await account(), ...tooLarge })],
  ['createToken', 422, async () => control('POST', '/_sandbox/tokens', { token: await account(), body: { permissions: ['admin'] } })],
  ['revokeToken', 204, async () => {
    const owner = await account();
    const created = await control('POST', '/_sandbox/tokens', { token: owner, body: { permissions: ['read'] } });
    return control('DELETE', `/_sandbox/tokens/${(created.body as { data: { id: number } }).data.id}`, { token: owner });
  }],
  ['revokeToken', 401, () => control('DELETE', '/_sandbox/tokens/1')],
  ['revokeToken', 404, async () => control('DELETE', '/_sandbox/tokens/999999', { token: await account() })],
  ['createBook', 201, async () => control('POST', '/_sandbox/books', { token: await account(), body: { name: 'Consignments' } })],
  ['createBook', 401, () => control('POST', '/_sandbox/books', { body: { name: 'Consignments' } })],
  ['createBook', 413, async () => control('POST', '/_sandbox/books', { token: await account(), ...tooLarge })],
  ['createBook', 422, async () => control('POST', '/_sandbox/books', { token: await account(), body: { name: 'Main' } })],
  ['getClock', 200, async () => control('GET', '/_sandbox/clock', { token: await account() })],
  ['getClock', 401, () => control('GET', '/_sandbox/clock')],
  ['advanceClock', 200, async () => control('POST', '/_sandbox/clock/advance', { token: await account(), body: { seconds: 3600 } })],
  ['advanceClock', 401, () => control('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } })],
  ['advanceClock', 413, async () => control('POST', '/_sandbox/clock/advance', { token: await account(), ...tooLarge })],
  ['advanceClock', 422, async () => control('POST', '/_sandbox/clock/advance', { token: await account(), body: { seconds: -5 } })],
  ['getReceiptAudit', 200, async () => {
    const t = await account();
    const id = await receipt(t);
    await api('PUT', `/receipts/${id}`, { token: t, body: { caliber: '9x19mm' } });
    return control('GET', `/_sandbox/receipts/${id}/audit`, { token: t });
  }],
  ['getReceiptAudit', 401, () => control('GET', '/_sandbox/receipts/1/audit')],
  ['getReceiptAudit', 404, async () => control('GET', '/_sandbox/receipts/999999/audit', { token: await account() })],
  ['attachDocument', 201, async () => {
    const t = await account();
    return control('POST', `/_sandbox/receipts/${await receipt(t)}/documents`, { token: t, body: { name: 'invoice.pdf', mime_type: 'application/pdf', size: 48213 } });
  }],
  ['attachDocument', 401, () => control('POST', '/_sandbox/receipts/1/documents', { body: {} })],
  ['attachDocument', 404, async () => control('POST', '/_sandbox/receipts/999999/documents', { token: await account(), body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } })],
  ['attachDocument', 413, async () => control('POST', '/_sandbox/receipts/1/documents', { token: await account(), ...tooLarge })],
  ['attachDocument', 422, async () => { const t = await account(); return control('POST', `/_sandbox/receipts/${await receipt(t)}/documents`, { token: t, body: { size: -1 } }); }],
  ['putE4473', 200, async () => {
    const t = await account();
    return control('PUT', `/_sandbox/receipts/${await receipt(t)}/e4473`, {
      token: t,
      body: { form_4473_serial: 'F-000123', transferee_name: 'Jordan Example', nics_transaction_number: '1ABCD2EFG', nics_result: 'proceed', completed_at: '2025-02-01T16:20:00Z' },
    });
  }],
  ['putE4473', 401, () => control('PUT', '/_sandbox/receipts/1/e4473', { body: {} })],
  ['putE4473', 404, async () => control('PUT', '/_sandbox/receipts/999999/e4473', { token: await account(), body: {} })],
  ['putE4473', 413, async () => control('PUT', '/_sandbox/receipts/1/e4473', { token: await account(), ...tooLarge })],
  ['putE4473', 422, async () => { const t = await account(); return control('PUT', `/_sandbox/receipts/${await receipt(t)}/e4473`, { token: t, body: { nics_result: 'maybe' } }); }],
  ['listRequests', 200, async () => { const t = await account(); await api('GET', '/books', { token: t }); return control('GET', '/_sandbox/requests', { token: t }); }],
  ['listRequests', 401, () => control('GET', '/_sandbox/requests')],
  ['resetAccount', 204, async () => { const t = await account(); await receipt(t); return control('POST', '/_sandbox/reset', { token: t }); }],
  ['resetAccount', 401, () => control('POST', '/_sandbox/reset')],
  ['listDeliveries', 200, async () => { const t = await account(); await pinged(t); await receipt(t); return control('GET', '/_sandbox/deliveries', { token: t }); }],
  ['listDeliveries', 401, () => control('GET', '/_sandbox/deliveries')],
  ['redeliverDelivery', 200, async () => { const t = await account(); const { deliveryId } = await pinged(t); return control('POST', `/_sandbox/deliveries/${deliveryId}/redeliver`, { token: t }); }],
  ['redeliverDelivery', 401, () => control('POST', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f/redeliver')],
  ['redeliverDelivery', 404, async () => control('POST', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f/redeliver', { token: await account() })],
  ['redeliverDelivery', 422, async () => {
    const t = await account();
    const { webhookId, deliveryId } = await pinged(t);
    await api('DELETE', `/webhooks/${webhookId}`, { token: t });
    return control('POST', `/_sandbox/deliveries/${deliveryId}/redeliver`, { token: t });
  }],
  ['pingWebhook', 200, async () => { const t = await account(); return control('POST', `/_sandbox/webhooks/${await webhook(t)}/ping`, { token: t }); }],
  ['pingWebhook', 401, () => control('POST', '/_sandbox/webhooks/1/ping')],
  ['pingWebhook', 404, async () => control('POST', '/_sandbox/webhooks/999999/ping', { token: await account() })],
  ['pingWebhook', 422, async () => { const t = await account(); return control('POST', `/_sandbox/webhooks/${await disabledWebhook(t)}/ping`, { token: t }); }],
  ['enableWebhook', 200, async () => { const t = await account(); return control('POST', `/_sandbox/webhooks/${await disabledWebhook(t)}/enable`, { token: t }); }],
  ['enableWebhook', 401, () => control('POST', '/_sandbox/webhooks/1/enable')],
  ['enableWebhook', 404, async () => control('POST', '/_sandbox/webhooks/999999/enable', { token: await account() })],
];

describe.each([
  ['the service API (openapi.yaml)', serviceCases],
  ['the control API (sandbox.yaml)', controlCases],
])('%s', (_name, cases) => {
  it.each(cases)('%s answers %i as the contract documents', async (operationId, status, run) => {
    const response = await run();
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(contract.check(operationId, response)).toEqual([]);
  });
});

it('every documented (operation, status) pair was produced and validated', () => {
  expect(contract.documentedPairs().filter((pair) => !contract.seen.has(pair))).toEqual([]);
});
