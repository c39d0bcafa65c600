import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@fflkit/sandbox';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ContractValidator, type ObservedResponse } from '../support/contract-validator';
import { call, type CallOptions } from '../support/sandbox-client';

// Every (operation, status) pair that openapi/openapi.yaml and openapi/sandbox.yaml document is
// produced against a real sandbox over HTTP and checked with a JSON Schema validator.

const contract = new ContractValidator(new URL('../../openapi/', import.meta.url));
type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: RunningSandbox;
/** A sandbox that holds one account at most. */
let full: RunningSandbox;
/** A sandbox whose data folder is gone, so that no write can be saved, and what it holds. */
let unsaved: UnsavedWorld;

beforeAll(async () => {
  sandbox = await startSandbox();
  full = await startSandbox({ maxAccounts: 1 });
  await full.createAccount();
  unsaved = await unsavedWorld();
});
afterAll(async () => {
  await Promise.all([sandbox?.stop(), full?.stop(), unsaved?.sandbox.stop()]);
});

const api = (method: string, path: string, options?: CallOptions) => call(sandbox.apiUrl, method, path, options);
const control = (method: string, path: string, options?: CallOptions) => call(sandbox.url, method, path, options);
const tooLarge = { rawBody: JSON.stringify({ padding: 'x'.repeat(1_048_577) }) };
/** A JSON body sent as text/plain, as a page of another origin can send it without a preflight. */
const asText = (body: unknown) => ({ rawBody: JSON.stringify(body), headers: { 'content-type': 'text/plain' } });

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
/** Adds a fault rule to the account of `token`; the answer of `POST /_sandbox/faults`. */
function fault(token: string, rule: Record<string, unknown>) {
  return control('POST', '/_sandbox/faults', { token, body: rule });
}
/** A fixtures file of one account with a token of its own, new on each call. */
let fixturesFiles = 0;
function fixturesFile() {
  fixturesFiles += 1;
  const token = `sbx_contract${String(fixturesFiles).padStart(20, '0')}`;
  return { accounts: [{ name: 'Fixture Arms', tokens: [{ token }], receipts: [receiptBody()] }] };
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

interface UnsavedWorld {
  sandbox: RunningSandbox;
  token: string;
  receiptId: number;
  webhookId: number;
  disabledWebhookId: number;
  deliveryId: string;
  tokenId: number;
}

/**
 * A sandbox on a data file whose folder is deleted: every write it answers is a 503. The records
 * the writes need are made first, by a sandbox on the same file that is then stopped, because a
 * journal file, once open, takes appends after its folder is gone; the sandbox that reopens the
 * file opens its journal at its first write, which then fails.
 */
async function unsavedWorld(): Promise<UnsavedWorld> {
  const folder = await mkdtemp(join(tmpdir(), 'fflkit-contract-'));
  const data = join(folder, 'sandbox.json');
  const first = await startSandbox({ data });
  const send = (origin: string, method: string, path: string, options?: CallOptions) =>
    call(origin, method, path, options);
  const { token } = await first.createAccount();
  const idOf = (response: ObservedResponse) => (response.body as { data: { id: number } }).data.id;
  const receiptId = idOf(await send(first.apiUrl, 'POST', '/receipts', { token, body: receiptBody() }));
  const endpoint = { url: 'http://127.0.0.1:9/hook', events: ['*'] };
  const webhookId = idOf(await send(first.apiUrl, 'POST', '/webhooks', { token, body: endpoint }));
  const ping = await send(first.url, 'POST', `/_sandbox/webhooks/${webhookId}/ping`, { token });
  const deliveryId = (ping.body as { data: { id: string } }).data.id;
  await send(first.url, 'PUT', `/_sandbox/webhooks/${webhookId}/chaos`, { token, body: { delay_ms: 1 } });
  const disabledWebhookId = idOf(await send(first.apiUrl, 'POST', '/webhooks', { token, body: endpoint }));
  for (let i = 0; i < 10; i += 1)
    await send(first.url, 'POST', `/_sandbox/webhooks/${disabledWebhookId}/ping`, { token });
  const tokenId = idOf(await send(first.url, 'POST', '/_sandbox/tokens', { token, body: { permissions: ['read'] } }));
  await first.stop();
  const second = await startSandbox({ data });
  await rm(folder, { recursive: true, force: true });
  return { sandbox: second, token, receiptId, webhookId, disabledWebhookId, deliveryId, tokenId };
}
const unsavedApi = (method: string, path: string, options: CallOptions = {}) =>
  call(unsaved.sandbox.apiUrl, method, path, { token: unsaved.token, ...options });
const unsavedControl = (method: string, path: string, options: CallOptions = {}) =>
  call(unsaved.sandbox.url, method, path, { token: unsaved.token, ...options });

/** An account with receipts in two books, one disposed, with fields that CSV must quote. */
async function accountWithBooks() {
  const t = await account();
  await control('POST', '/_sandbox/books', { token: t, body: { name: 'Consignment' } });
  await api('POST', '/receipts', { token: t, body: receiptBody({ book: 'Consignment' }) });
  const quoted = receiptBody({
    manufacturer: 'Example Arms Co., "Ltd."',
    received_from: 'Example Firearms\nWholesale LLC',
  });
  const first = await api('POST', '/receipts', { token: t, body: quoted });
  await api('POST', `/receipts/${(first.body as { data: { id: number } }).data.id}/dispose`, {
    token: t,
    body: dispositionWithAddressBody(),
  });
  await api('POST', '/receipts', {
    token: t,
    body: receiptBody({
      ffl_license: null,
      address: '100 Example Way',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    }),
  });
  return t;
}

/**
 * `GET /_sandbox/events`, a stream that never ends: its status, headers and, for a 200, the text
 * of the stream up to the end of the first event block that `trigger` causes, then the stream is
 * let go. An answer that is not a stream (a 401) is read whole.
 */
async function follow(token: string | undefined, trigger?: () => Promise<unknown>): Promise<ObservedResponse> {
  const abort = new AbortController();
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await fetch(`${sandbox.url}/_sandbox/events`, { headers, signal: abort.signal });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const triggered = trigger?.();
  while (!/^event: .*\ndata: .*\n\n/m.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await triggered;
  abort.abort();
  return { status: response.status, headers: response.headers, body: text };
}

const e4473Body = {
  form_4473_serial: 'F-000123',
  transferee_name: 'Jordan Example',
  nics_transaction_number: '1ABCD2EFG',
  nics_result: 'proceed',
  completed_at: '2025-02-01T16:20:00Z',
};

type Case = [operationId: string, status: number, run: () => Promise<ObservedResponse>];

const serviceCases: Case[] = [
  [
    'listReceipts',
    200,
    async () => {
      const t = await account();
      await receipt(t);
      return api('GET', '/receipts', { token: t });
    },
  ],
  ['listReceipts', 401, () => api('GET', '/receipts')],
  ['listReceipts', 403, async () => api('GET', '/receipts', { token: await tokenWith(await account(), ['write']) })],
  ['listReceipts', 422, async () => api('GET', '/receipts', { token: await account(), query: { per_page: '201' } })],
  ['listReceipts', 429, async () => api('GET', '/receipts', { token: await exhausted() })],
  ['createReceipt', 201, async () => api('POST', '/receipts', { token: await account(), body: receiptBody() })],
  ['createReceipt', 401, () => api('POST', '/receipts', { token: 'sbx_unknown', body: receiptBody() })],
  [
    'createReceipt',
    403,
    async () => api('POST', '/receipts', { token: await tokenWith(await account(), ['read']), body: receiptBody() }),
  ],
  ['createReceipt', 413, async () => api('POST', '/receipts', { token: await account(), ...tooLarge })],
  ['createReceipt', 415, async () => api('POST', '/receipts', { token: await account(), ...asText(receiptBody()) })],
  ['createReceipt', 422, async () => api('POST', '/receipts', { token: await account(), body: {} })],
  ['createReceipt', 429, async () => api('POST', '/receipts', { token: await exhausted(), body: receiptBody() })],
  ['createReceipt', 503, () => unsavedApi('POST', '/receipts', { body: receiptBody() })],
  [
    'getReceipt',
    200,
    async () => {
      const t = await account();
      return api('GET', `/receipts/${await receipt(t)}`, { token: t });
    },
  ],
  ['getReceipt', 401, () => api('GET', '/receipts/1')],
  ['getReceipt', 403, async () => api('GET', '/receipts/1', { token: await account('collector') })],
  ['getReceipt', 404, async () => api('GET', '/receipts/999999', { token: await account() })],
  ['getReceipt', 429, async () => api('GET', '/receipts/1', { token: await exhausted() })],
  [
    'updateReceipt',
    200,
    async () => {
      const t = await account();
      return api('PUT', `/receipts/${await receipt(t)}`, { token: t, body: { model: 'Model 2' } });
    },
  ],
  ['updateReceipt', 401, () => api('PUT', '/receipts/1', { body: { model: 'Model 2' } })],
  [
    'updateReceipt',
    403,
    async () => api('PUT', '/receipts/1', { token: await tokenWith(await account(), ['read']), body: {} }),
  ],
  [
    'updateReceipt',
    404,
    async () => api('PUT', '/receipts/999999', { token: await account(), body: { model: 'Model 2' } }),
  ],
  ['updateReceipt', 413, async () => api('PUT', '/receipts/1', { token: await account(), ...tooLarge })],
  [
    'updateReceipt',
    415,
    async () => api('PUT', '/receipts/1', { token: await account(), ...asText({ model: 'Model 2' }) }),
  ],
  [
    'updateReceipt',
    422,
    async () => {
      const t = await account();
      return api('PUT', `/receipts/${await receipt(t)}`, { token: t, body: { book: 'Other' } });
    },
  ],
  ['updateReceipt', 429, async () => api('PUT', '/receipts/1', { token: await exhausted(), body: {} })],
  ['updateReceipt', 503, () => unsavedApi('PUT', `/receipts/${unsaved.receiptId}`, { body: { model: 'Model 2' } })],
  [
    'deleteReceipt',
    204,
    async () => {
      const t = await account();
      return api('DELETE', `/receipts/${await receipt(t)}`, { token: t });
    },
  ],
  ['deleteReceipt', 401, () => api('DELETE', '/receipts/1')],
  [
    'deleteReceipt',
    403,
    async () => api('DELETE', '/receipts/1', { token: await tokenWith(await account(), ['read', 'write']) }),
  ],
  ['deleteReceipt', 404, async () => api('DELETE', '/receipts/999999', { token: await account() })],
  ['deleteReceipt', 429, async () => api('DELETE', '/receipts/1', { token: await exhausted() })],
  ['deleteReceipt', 503, () => unsavedApi('DELETE', `/receipts/${unsaved.receiptId}`)],
  [
    'disposeReceipt',
    200,
    async () => {
      const t = await account();
      return api('POST', `/receipts/${await receipt(t)}/dispose`, { token: t, body: dispositionWithAddressBody() });
    },
  ],
  ['disposeReceipt', 401, () => api('POST', '/receipts/1/dispose', { body: dispositionWithAddressBody() })],
  [
    'disposeReceipt',
    403,
    async () =>
      api('POST', '/receipts/1/dispose', {
        token: await tokenWith(await account(), ['read']),
        body: dispositionWithAddressBody(),
      }),
  ],
  [
    'disposeReceipt',
    404,
    async () => api('POST', '/receipts/999999/dispose', { token: await account(), body: dispositionWithAddressBody() }),
  ],
  ['disposeReceipt', 413, async () => api('POST', '/receipts/1/dispose', { token: await account(), ...tooLarge })],
  [
    'disposeReceipt',
    415,
    async () => api('POST', '/receipts/1/dispose', { token: await account(), ...asText(dispositionWithAddressBody()) }),
  ],
  [
    'disposeReceipt',
    422,
    async () => {
      const t = await account();
      return api('POST', `/receipts/${await receipt(t)}/dispose`, {
        token: t,
        body: { disposed_to: 'Jordan Example' },
      });
    },
  ],
  [
    'disposeReceipt',
    429,
    async () => api('POST', '/receipts/1/dispose', { token: await exhausted(), body: dispositionWithAddressBody() }),
  ],
  [
    'disposeReceipt',
    503,
    () => unsavedApi('POST', `/receipts/${unsaved.receiptId}/dispose`, { body: dispositionWithAddressBody() }),
  ],
  ['listBooks', 200, async () => api('GET', '/books', { token: await account() })],
  ['listBooks', 401, () => api('GET', '/books', { headers: { authorization: 'Basic abc' } })],
  ['listBooks', 403, async () => api('GET', '/books', { token: await account('collector') })],
  ['listBooks', 429, async () => api('GET', '/books', { token: await exhausted() })],
  [
    'listInventory',
    200,
    async () => {
      const t = await account();
      await receipt(t);
      return api('GET', '/inventory', { token: t });
    },
  ],
  ['listInventory', 401, () => api('GET', '/inventory')],
  ['listInventory', 403, async () => api('GET', '/inventory', { token: await tokenWith(await account(), []) })],
  ['listInventory', 422, async () => api('GET', '/inventory', { token: await account(), query: { page: '0' } })],
  ['listInventory', 429, async () => api('GET', '/inventory', { token: await exhausted() })],
  [
    'searchReceipts',
    200,
    async () => {
      const t = await account();
      await receipt(t);
      return api('GET', '/search', { token: t, query: { q: 'example', field: 'manufacturer' } });
    },
  ],
  ['searchReceipts', 401, () => api('GET', '/search', { query: { q: 'x' } })],
  ['searchReceipts', 403, async () => api('GET', '/search', { token: await account('collector'), query: { q: 'x' } })],
  ['searchReceipts', 422, async () => api('GET', '/search', { token: await account() })],
  ['searchReceipts', 429, async () => api('GET', '/search', { token: await exhausted(), query: { q: 'x' } })],
  [
    'listWebhooks',
    200,
    async () => {
      const t = await account();
      await webhook(t);
      return api('GET', '/webhooks', { token: t });
    },
  ],
  ['listWebhooks', 401, () => api('GET', '/webhooks')],
  [
    'listWebhooks',
    403,
    async () => api('GET', '/webhooks', { token: await tokenWith(await account(), ['write', 'delete']) }),
  ],
  ['listWebhooks', 429, async () => api('GET', '/webhooks', { token: await exhausted() })],
  [
    'createWebhook',
    201,
    async () =>
      api('POST', '/webhooks', {
        token: await account(),
        body: { url: 'https://hooks.example.com/logbook', events: ['receipt.created', 'receipt.disposed'] },
      }),
  ],
  [
    'createWebhook',
    401,
    () => api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['*'] } }),
  ],
  [
    'createWebhook',
    403,
    async () =>
      api('POST', '/webhooks', {
        token: await tokenWith(await account(), ['read']),
        body: { url: 'https://hooks.example.com/x', events: ['*'] },
      }),
  ],
  ['createWebhook', 413, async () => api('POST', '/webhooks', { token: await account(), ...tooLarge })],
  [
    'createWebhook',
    415,
    async () =>
      api('POST', '/webhooks', {
        token: await account(),
        ...asText({ url: 'https://hooks.example.com/x', events: ['*'] }),
      }),
  ],
  [
    'createWebhook',
    422,
    async () => api('POST', '/webhooks', { token: await account(), body: { url: 'ftp://example.com', events: [] } }),
  ],
  [
    'createWebhook',
    429,
    async () =>
      api('POST', '/webhooks', {
        token: await exhausted(),
        body: { url: 'https://hooks.example.com/x', events: ['*'] },
      }),
  ],
  [
    'createWebhook',
    503,
    () => unsavedApi('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x', events: ['*'] } }),
  ],
  [
    'deleteWebhook',
    204,
    async () => {
      const t = await account();
      return api('DELETE', `/webhooks/${await webhook(t)}`, { token: t });
    },
  ],
  ['deleteWebhook', 401, () => api('DELETE', '/webhooks/1')],
  [
    'deleteWebhook',
    403,
    async () => api('DELETE', '/webhooks/1', { token: await tokenWith(await account(), ['read', 'write']) }),
  ],
  ['deleteWebhook', 404, async () => api('DELETE', '/webhooks/999999', { token: await account() })],
  ['deleteWebhook', 429, async () => api('DELETE', '/webhooks/1', { token: await exhausted() })],
  ['deleteWebhook', 503, () => unsavedApi('DELETE', `/webhooks/${unsaved.webhookId}`)],
];

const controlCases: Case[] = [
  ['getHealth', 200, () => control('GET', '/_sandbox/health')],
  ['getHealth', 403, () => control('GET', '/_sandbox/health', { headers: { origin: 'https://evil.example' } })],
  [
    'createAccount',
    201,
    () =>
      control('POST', '/_sandbox/accounts', {
        body: { account_type: 'importer', name: 'Example Imports LLC', books: ['Imports'] },
      }),
  ],
  ['createAccount', 409, () => call(full.url, 'POST', '/_sandbox/accounts', { body: {} })],
  ['createAccount', 413, () => control('POST', '/_sandbox/accounts', tooLarge)],
  ['createAccount', 415, () => control('POST', '/_sandbox/accounts', asText({ account_type: 'dealer' }))],
  ['createAccount', 422, () => control('POST', '/_sandbox/accounts', { body: { account_type: 'bank' } })],
  ['createAccount', 503, () => call(unsaved.sandbox.url, 'POST', '/_sandbox/accounts', { body: {} })],
  ['deleteAccount', 204, async () => control('DELETE', '/_sandbox/account', { token: await account() })],
  ['deleteAccount', 401, () => control('DELETE', '/_sandbox/account', { token: 'sbx_unknown' })],
  ['deleteAccount', 503, () => unsavedControl('DELETE', '/_sandbox/account')],
  [
    'listTokens',
    200,
    async () => {
      const t = await account();
      await tokenWith(t, ['read']);
      return control('GET', '/_sandbox/tokens', { token: t });
    },
  ],
  ['listTokens', 401, () => control('GET', '/_sandbox/tokens')],
  [
    'createToken',
    201,
    async () =>
      control('POST', '/_sandbox/tokens', { token: await account(), body: { permissions: ['read'], name: 'Reports' } }),
  ],
  ['createToken', 401, () => control('POST', '/_sandbox/tokens', { body: { permissions: ['read'] } })],
  ['createToken', 413, async () => control('POST', '/_sandbox/tokens', { token: await account(), ...tooLarge })],
  [
    'createToken',
    415,
    async () => control('POST', '/_sandbox/tokens', { token: await account(), ...asText({ permissions: ['read'] }) }),
  ],
  [
    'createToken',
    422,
    async () => control('POST', '/_sandbox/tokens', { token: await account(), body: { permissions: ['admin'] } }),
  ],
  ['createToken', 503, () => unsavedControl('POST', '/_sandbox/tokens', { body: { permissions: ['read'] } })],
  [
    'revokeToken',
    204,
    async () => {
      const owner = await account();
      const created = await control('POST', '/_sandbox/tokens', { token: owner, body: { permissions: ['read'] } });
      return control('DELETE', `/_sandbox/tokens/${(created.body as { data: { id: number } }).data.id}`, {
        token: owner,
      });
    },
  ],
  ['revokeToken', 401, () => control('DELETE', '/_sandbox/tokens/1')],
  ['revokeToken', 404, async () => control('DELETE', '/_sandbox/tokens/999999', { token: await account() })],
  ['revokeToken', 503, () => unsavedControl('DELETE', `/_sandbox/tokens/${unsaved.tokenId}`)],
  ['listControlBooks', 200, async () => control('GET', '/_sandbox/books', { token: await accountWithBooks() })],
  ['listControlBooks', 401, () => control('GET', '/_sandbox/books')],
  [
    'createBook',
    201,
    async () => control('POST', '/_sandbox/books', { token: await account(), body: { name: 'Consignments' } }),
  ],
  ['createBook', 401, () => control('POST', '/_sandbox/books', { body: { name: 'Consignments' } })],
  ['createBook', 413, async () => control('POST', '/_sandbox/books', { token: await account(), ...tooLarge })],
  [
    'createBook',
    415,
    async () => control('POST', '/_sandbox/books', { token: await account(), ...asText({ name: 'Consignments' }) }),
  ],
  [
    'createBook',
    422,
    async () => control('POST', '/_sandbox/books', { token: await account(), body: { name: 'Main' } }),
  ],
  ['createBook', 503, () => unsavedControl('POST', '/_sandbox/books', { body: { name: 'Consignments' } })],
  ['getClock', 200, async () => control('GET', '/_sandbox/clock', { token: await account() })],
  ['getClock', 401, () => control('GET', '/_sandbox/clock')],
  [
    'advanceClock',
    200,
    async () => control('POST', '/_sandbox/clock/advance', { token: await account(), body: { seconds: 3600 } }),
  ],
  ['advanceClock', 401, () => control('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } })],
  [
    'advanceClock',
    413,
    async () => control('POST', '/_sandbox/clock/advance', { token: await account(), ...tooLarge }),
  ],
  [
    'advanceClock',
    415,
    async () => control('POST', '/_sandbox/clock/advance', { token: await account(), ...asText({ seconds: 60 }) }),
  ],
  [
    'advanceClock',
    422,
    async () => control('POST', '/_sandbox/clock/advance', { token: await account(), body: { seconds: -5 } }),
  ],
  ['advanceClock', 503, () => unsavedControl('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } })],
  [
    'browseReceipts',
    200,
    async () =>
      control('GET', '/_sandbox/receipts', {
        token: await accountWithBooks(),
        query: { q: 'example', field: 'received_from', per_page: '1000' },
      }),
  ],
  ['browseReceipts', 401, () => control('GET', '/_sandbox/receipts')],
  [
    'browseReceipts',
    422,
    async () => control('GET', '/_sandbox/receipts', { token: await account(), query: { per_page: '1001' } }),
  ],
  ['exportReceipts', 200, async () => control('GET', '/_sandbox/receipts/export', { token: await accountWithBooks() })],
  ['exportReceipts', 401, () => control('GET', '/_sandbox/receipts/export')],
  [
    'exportReceipts',
    422,
    async () => control('GET', '/_sandbox/receipts/export', { token: await account(), query: { status: 'lost' } }),
  ],
  [
    'getReceiptAudit',
    200,
    async () => {
      const t = await account();
      const id = await receipt(t);
      await api('PUT', `/receipts/${id}`, { token: t, body: { caliber: '9x19mm' } });
      return control('GET', `/_sandbox/receipts/${id}/audit`, { token: t });
    },
  ],
  ['getReceiptAudit', 401, () => control('GET', '/_sandbox/receipts/1/audit')],
  ['getReceiptAudit', 404, async () => control('GET', '/_sandbox/receipts/999999/audit', { token: await account() })],
  [
    'attachDocument',
    201,
    async () => {
      const t = await account();
      return control('POST', `/_sandbox/receipts/${await receipt(t)}/documents`, {
        token: t,
        body: { name: 'invoice.pdf', mime_type: 'application/pdf', size: 48213 },
      });
    },
  ],
  ['attachDocument', 401, () => control('POST', '/_sandbox/receipts/1/documents', { body: {} })],
  [
    'attachDocument',
    404,
    async () =>
      control('POST', '/_sandbox/receipts/999999/documents', {
        token: await account(),
        body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 },
      }),
  ],
  [
    'attachDocument',
    413,
    async () => control('POST', '/_sandbox/receipts/1/documents', { token: await account(), ...tooLarge }),
  ],
  [
    'attachDocument',
    415,
    async () =>
      control('POST', '/_sandbox/receipts/1/documents', {
        token: await account(),
        ...asText({ name: 'a.pdf', mime_type: 'application/pdf', size: 1 }),
      }),
  ],
  [
    'attachDocument',
    422,
    async () => {
      const t = await account();
      return control('POST', `/_sandbox/receipts/${await receipt(t)}/documents`, { token: t, body: { size: -1 } });
    },
  ],
  [
    'attachDocument',
    503,
    () =>
      unsavedControl('POST', `/_sandbox/receipts/${unsaved.receiptId}/documents`, {
        body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 },
      }),
  ],
  [
    'putE4473',
    200,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/receipts/${await receipt(t)}/e4473`, { token: t, body: e4473Body });
    },
  ],
  ['putE4473', 401, () => control('PUT', '/_sandbox/receipts/1/e4473', { body: {} })],
  [
    'putE4473',
    404,
    async () => control('PUT', '/_sandbox/receipts/999999/e4473', { token: await account(), body: {} }),
  ],
  ['putE4473', 413, async () => control('PUT', '/_sandbox/receipts/1/e4473', { token: await account(), ...tooLarge })],
  [
    'putE4473',
    415,
    async () =>
      control('PUT', '/_sandbox/receipts/1/e4473', { token: await account(), ...asText({ nics_result: 'proceed' }) }),
  ],
  [
    'putE4473',
    422,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/receipts/${await receipt(t)}/e4473`, {
        token: t,
        body: { nics_result: 'maybe' },
      });
    },
  ],
  ['putE4473', 503, () => unsavedControl('PUT', `/_sandbox/receipts/${unsaved.receiptId}/e4473`, { body: e4473Body })],
  ['loadFixtures', 200, () => control('POST', '/_sandbox/fixtures', { body: fixturesFile() })],
  ['loadFixtures', 409, () => call(full.url, 'POST', '/_sandbox/fixtures', { body: fixturesFile() })],
  ['loadFixtures', 413, () => control('POST', '/_sandbox/fixtures', tooLarge)],
  ['loadFixtures', 415, () => control('POST', '/_sandbox/fixtures', asText(fixturesFile()))],
  [
    'loadFixtures',
    422,
    () => control('POST', '/_sandbox/fixtures', { body: { accounts: [{ tokens: [{ token: 'sbx_short' }] }] } }),
  ],
  ['loadFixtures', 503, () => call(unsaved.sandbox.url, 'POST', '/_sandbox/fixtures', { body: fixturesFile() })],
  [
    'exportFixtures',
    200,
    async () => {
      const t = await accountWithBooks();
      return control('GET', '/_sandbox/fixtures', { token: t });
    },
  ],
  ['exportFixtures', 401, () => control('GET', '/_sandbox/fixtures')],
  [
    'listRequests',
    200,
    async () => {
      const t = await account();
      await api('GET', '/books', { token: t });
      return control('GET', '/_sandbox/requests', { token: t });
    },
  ],
  ['listRequests', 401, () => control('GET', '/_sandbox/requests')],
  [
    'listRequests',
    422,
    async () => control('GET', '/_sandbox/requests', { token: await account(), query: { body: '[1]' } }),
  ],
  [
    'listFaults',
    200,
    async () => {
      const t = await account();
      await fault(t, { operation: 'createReceipt', action: 'drop', after_acting: true, times: 1 });
      await api('POST', '/receipts', { token: t, body: receiptBody() }).catch(() => undefined);
      return control('GET', '/_sandbox/faults', { token: t });
    },
  ],
  ['listFaults', 401, () => control('GET', '/_sandbox/faults')],
  [
    'createFault',
    201,
    async () =>
      fault(await account(), {
        method: 'POST',
        path: '/receipts/{id}/dispose',
        action: 'status',
        status: 503,
        retry_after: 2,
        probability: 0.33,
        seed: 42,
      }),
  ],
  ['createFault', 401, () => control('POST', '/_sandbox/faults', { body: { action: 'drop' } })],
  [
    'createFault',
    409,
    async () => {
      const t = await account();
      for (let i = 0; i < 100; i += 1) await fault(t, { action: 'drop', probability: 0 });
      return fault(t, { action: 'drop' });
    },
  ],
  ['createFault', 413, async () => control('POST', '/_sandbox/faults', { token: await account(), ...tooLarge })],
  [
    'createFault',
    415,
    async () => control('POST', '/_sandbox/faults', { token: await account(), ...asText({ action: 'drop' }) }),
  ],
  [
    'createFault',
    422,
    async () =>
      fault(await account(), { operation: 'createReciept', action: 'status', status: 429, after_acting: true }),
  ],
  [
    'clearFaults',
    204,
    async () => {
      const t = await account();
      await fault(t, { action: 'drop' });
      return control('DELETE', '/_sandbox/faults', { token: t });
    },
  ],
  ['clearFaults', 401, () => control('DELETE', '/_sandbox/faults')],
  [
    'deleteFault',
    204,
    async () => {
      const t = await account();
      const added = await fault(t, { action: 'drop' });
      return control('DELETE', `/_sandbox/faults/${(added.body as { data: { id: number } }).data.id}`, { token: t });
    },
  ],
  ['deleteFault', 401, () => control('DELETE', '/_sandbox/faults/1')],
  ['deleteFault', 404, async () => control('DELETE', '/_sandbox/faults/999999', { token: await account() })],
  [
    'resetAccount',
    204,
    async () => {
      const t = await account();
      await receipt(t);
      return control('POST', '/_sandbox/reset', { token: t });
    },
  ],
  ['resetAccount', 401, () => control('POST', '/_sandbox/reset')],
  ['resetAccount', 503, () => unsavedControl('POST', '/_sandbox/reset')],
  [
    'listDeliveries',
    200,
    async () => {
      const t = await account();
      await pinged(t);
      await receipt(t);
      return control('GET', '/_sandbox/deliveries', { token: t });
    },
  ],
  [
    'listDeliveries',
    200,
    async () => {
      const t = await account();
      const { webhookId } = await pinged(t);
      return control('GET', '/_sandbox/deliveries', {
        token: t,
        query: { webhook_id: String(webhookId), state: 'pending' },
      });
    },
  ],
  ['listDeliveries', 401, () => control('GET', '/_sandbox/deliveries')],
  [
    'listDeliveries',
    422,
    async () => control('GET', '/_sandbox/deliveries', { token: await account(), query: { state: 'lost' } }),
  ],
  [
    'getDelivery',
    200,
    async () => {
      const t = await account();
      const { deliveryId } = await pinged(t);
      return control('GET', `/_sandbox/deliveries/${deliveryId}`, { token: t });
    },
  ],
  [
    'getDelivery',
    200,
    async () => {
      const t = await account();
      const { webhookId, deliveryId } = await pinged(t);
      await control('DELETE', `/_sandbox/webhooks/${webhookId}`, { token: t });
      return control('GET', `/_sandbox/deliveries/${deliveryId}`, { token: t });
    },
  ],
  ['getDelivery', 401, () => control('GET', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f')],
  [
    'getDelivery',
    404,
    async () => control('GET', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f', { token: await account() }),
  ],
  [
    'addWebhookEndpoint',
    201,
    async () =>
      control('POST', '/_sandbox/webhooks', {
        token: await tokenWith(await account(), []),
        body: { url: 'http://127.0.0.1:9/hook', events: ['receipt.created', 'receipt.disposed'] },
      }),
  ],
  [
    'addWebhookEndpoint',
    401,
    () => control('POST', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } }),
  ],
  [
    'addWebhookEndpoint',
    413,
    async () => control('POST', '/_sandbox/webhooks', { token: await account(), ...tooLarge }),
  ],
  [
    'addWebhookEndpoint',
    415,
    async () =>
      control('POST', '/_sandbox/webhooks', {
        token: await account(),
        ...asText({ url: 'http://127.0.0.1:9/hook', events: ['*'] }),
      }),
  ],
  [
    'addWebhookEndpoint',
    422,
    async () =>
      control('POST', '/_sandbox/webhooks', {
        token: await account(),
        body: { url: 'ftp://example.com', events: ['*', 'ping'] },
      }),
  ],
  [
    'addWebhookEndpoint',
    503,
    () => unsavedControl('POST', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } }),
  ],
  [
    'deleteWebhookEndpoint',
    204,
    async () => {
      const t = await account();
      return control('DELETE', `/_sandbox/webhooks/${await webhook(t)}`, { token: await tokenWith(t, ['read']) });
    },
  ],
  ['deleteWebhookEndpoint', 401, () => control('DELETE', '/_sandbox/webhooks/1')],
  [
    'deleteWebhookEndpoint',
    404,
    async () => control('DELETE', '/_sandbox/webhooks/999999', { token: await account() }),
  ],
  ['deleteWebhookEndpoint', 503, () => unsavedControl('DELETE', `/_sandbox/webhooks/${unsaved.webhookId}`)],
  [
    'viewReceipt',
    200,
    async () => {
      const t = await account();
      const id = await receipt(t);
      await control('PUT', `/_sandbox/receipts/${id}/e4473`, { token: t, body: e4473Body });
      await control('POST', `/_sandbox/receipts/${id}/documents`, {
        token: t,
        body: { name: 'invoice.pdf', mime_type: 'application/pdf', size: 48213 },
      });
      await api('POST', `/receipts/${id}/dispose`, {
        token: t,
        body: dispositionWithAddressBody({ form_4473_serial: `F-${id}` }),
      });
      return control('GET', `/_sandbox/receipts/${id}`, { token: t });
    },
  ],
  ['viewReceipt', 401, () => control('GET', '/_sandbox/receipts/1')],
  [
    'viewReceipt',
    404,
    async () => {
      const t = await account();
      const id = await receipt(t);
      await api('DELETE', `/receipts/${id}`, { token: t });
      return control('GET', `/_sandbox/receipts/${id}`, { token: t });
    },
  ],
  [
    'followAccount',
    200,
    async () => {
      const t = await account();
      return follow(t, () => api('GET', '/books', { token: t }));
    },
  ],
  ['followAccount', 401, () => follow('sbx_unknown')],
  [
    'followAccount',
    429,
    async () => {
      // The contract's limit: 64 streams at once; the 65th is refused.
      const t = await account();
      const aborts = Array.from({ length: 64 }, () => new AbortController());
      await Promise.all(
        aborts.map((abort) =>
          fetch(`${sandbox.url}/_sandbox/events`, { headers: { authorization: `Bearer ${t}` }, signal: abort.signal }),
        ),
      );
      try {
        return await follow(t);
      } finally {
        for (const abort of aborts) abort.abort();
      }
    },
  ],
  [
    'redeliverDelivery',
    200,
    async () => {
      const t = await account();
      const { deliveryId } = await pinged(t);
      return control('POST', `/_sandbox/deliveries/${deliveryId}/redeliver`, { token: t });
    },
  ],
  [
    'redeliverDelivery',
    401,
    () => control('POST', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f/redeliver'),
  ],
  [
    'redeliverDelivery',
    404,
    async () =>
      control('POST', '/_sandbox/deliveries/0f8e2d4c-6b1a-4c3e-9d5f-7a2b4c6d8e0f/redeliver', {
        token: await account(),
      }),
  ],
  [
    'redeliverDelivery',
    404,
    async () => control('POST', '/_sandbox/deliveries/not-a-delivery/redeliver', { token: await account() }),
  ],
  [
    'redeliverDelivery',
    422,
    async () => {
      const t = await account();
      const { webhookId, deliveryId } = await pinged(t);
      await api('DELETE', `/webhooks/${webhookId}`, { token: t });
      return control('POST', `/_sandbox/deliveries/${deliveryId}/redeliver`, { token: t });
    },
  ],
  ['redeliverDelivery', 503, () => unsavedControl('POST', `/_sandbox/deliveries/${unsaved.deliveryId}/redeliver`)],
  [
    'listWebhookStates',
    200,
    async () => {
      const t = await account();
      await pinged(t);
      await disabledWebhook(t);
      return control('GET', '/_sandbox/webhooks', { token: t });
    },
  ],
  ['listWebhookStates', 401, () => control('GET', '/_sandbox/webhooks')],
  [
    'pingWebhook',
    200,
    async () => {
      const t = await account();
      return control('POST', `/_sandbox/webhooks/${await webhook(t)}/ping`, { token: t });
    },
  ],
  ['pingWebhook', 401, () => control('POST', '/_sandbox/webhooks/1/ping')],
  ['pingWebhook', 404, async () => control('POST', '/_sandbox/webhooks/999999/ping', { token: await account() })],
  [
    'pingWebhook',
    422,
    async () => {
      const t = await account();
      return control('POST', `/_sandbox/webhooks/${await disabledWebhook(t)}/ping`, { token: t });
    },
  ],
  ['pingWebhook', 503, () => unsavedControl('POST', `/_sandbox/webhooks/${unsaved.webhookId}/ping`)],
  [
    'enableWebhook',
    200,
    async () => {
      const t = await account();
      return control('POST', `/_sandbox/webhooks/${await disabledWebhook(t)}/enable`, { token: t });
    },
  ],
  ['enableWebhook', 401, () => control('POST', '/_sandbox/webhooks/1/enable')],
  ['enableWebhook', 404, async () => control('POST', '/_sandbox/webhooks/999999/enable', { token: await account() })],
  ['enableWebhook', 503, () => unsavedControl('POST', `/_sandbox/webhooks/${unsaved.disabledWebhookId}/enable`)],
  [
    'putWebhookChaos',
    200,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/webhooks/${await webhook(t)}/chaos`, {
        token: t,
        body: { reorder: { window: 3 }, duplicate: 0.25, delay_ms: 500, seed: 42 },
      });
    },
  ],
  [
    'putWebhookChaos',
    200,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/webhooks/${await webhook(t)}/chaos`, { token: t, body: {} });
    },
  ],
  ['putWebhookChaos', 401, () => control('PUT', '/_sandbox/webhooks/1/chaos', { body: { duplicate: 1 } })],
  [
    'putWebhookChaos',
    404,
    async () => control('PUT', '/_sandbox/webhooks/999999/chaos', { token: await account(), body: { duplicate: 1 } }),
  ],
  [
    'putWebhookChaos',
    413,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/webhooks/${await webhook(t)}/chaos`, { token: t, ...tooLarge });
    },
  ],
  [
    'putWebhookChaos',
    415,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/webhooks/${await webhook(t)}/chaos`, { token: t, ...asText({ duplicate: 1 }) });
    },
  ],
  [
    'putWebhookChaos',
    422,
    async () => {
      const t = await account();
      return control('PUT', `/_sandbox/webhooks/${await webhook(t)}/chaos`, {
        token: t,
        body: { reorder: { window: 1 }, dealy_ms: 5 },
      });
    },
  ],
  [
    'putWebhookChaos',
    503,
    () => unsavedControl('PUT', `/_sandbox/webhooks/${unsaved.webhookId}/chaos`, { body: { duplicate: 1 } }),
  ],
  [
    'deleteWebhookChaos',
    204,
    async () => {
      const t = await account();
      const webhookId = await webhook(t);
      await control('PUT', `/_sandbox/webhooks/${webhookId}/chaos`, { token: t, body: { duplicate: 1 } });
      return control('DELETE', `/_sandbox/webhooks/${webhookId}/chaos`, { token: t });
    },
  ],
  ['deleteWebhookChaos', 401, () => control('DELETE', '/_sandbox/webhooks/1/chaos')],
  [
    'deleteWebhookChaos',
    404,
    async () => control('DELETE', '/_sandbox/webhooks/999999/chaos', { token: await account() }),
  ],
  ['deleteWebhookChaos', 503, () => unsavedControl('DELETE', `/_sandbox/webhooks/${unsaved.webhookId}/chaos`)],
  // A receiver that refuses the connection: the ping gets no answer and the other checks are skipped.
  [
    'checkReceiver',
    200,
    async () =>
      control('POST', '/_sandbox/receiver-check', {
        token: await account(),
        body: { url: 'http://127.0.0.1:9/hook', secret: 'whsec_contract0000000000000000000001' },
      }),
  ],
  ['checkReceiver', 401, () => control('POST', '/_sandbox/receiver-check', { body: {} })],
  [
    'checkReceiver',
    413,
    async () => control('POST', '/_sandbox/receiver-check', { token: await account(), ...tooLarge }),
  ],
  [
    'checkReceiver',
    415,
    async () =>
      control('POST', '/_sandbox/receiver-check', {
        token: await account(),
        ...asText({ url: 'http://127.0.0.1:9/hook', secret: 'whsec_x1' }),
      }),
  ],
  [
    'checkReceiver',
    422,
    async () =>
      control('POST', '/_sandbox/receiver-check', { token: await account(), body: { url: 'ftp://x', secret: 'nope' } }),
  ],
  ['postMcpMessage', 200, async () => mcp(await account(), MCP_INITIALIZE)],
  [
    'postMcpMessage',
    202,
    async () => {
      const t = await account();
      return mcp(t, { jsonrpc: '2.0', method: 'notifications/initialized' }, await mcpSession(t));
    },
  ],
  ['postMcpMessage', 400, async () => mcp(await account(), { jsonrpc: '2.0', id: 2, method: 'tools/list' })],
  ['postMcpMessage', 401, () => mcp(undefined, MCP_INITIALIZE)],
  [
    'postMcpMessage',
    403,
    async () =>
      mcp(await account(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, await mcpSession(await account())),
  ],
  ['postMcpMessage', 404, async () => mcp(await account(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, 'nope')],
  [
    'postMcpMessage',
    406,
    async () => control('POST', '/_sandbox/mcp', { token: await account(), body: MCP_INITIALIZE }),
  ],
  ['postMcpMessage', 413, async () => control('POST', '/_sandbox/mcp', { token: await account(), ...tooLarge })],
  [
    'postMcpMessage',
    415,
    async () =>
      control('POST', '/_sandbox/mcp', {
        token: await account(),
        ...asText(MCP_INITIALIZE),
        headers: { 'content-type': 'text/plain', accept: MCP_ACCEPT },
      }),
  ],
  [
    'endMcpSession',
    200,
    async () => {
      const t = await account();
      return control('DELETE', '/_sandbox/mcp', { token: t, headers: mcpHeaders(await mcpSession(t)) });
    },
  ],
  ['endMcpSession', 401, () => control('DELETE', '/_sandbox/mcp', { headers: mcpHeaders('nope') })],
  [
    'endMcpSession',
    403,
    async () =>
      control('DELETE', '/_sandbox/mcp', {
        token: await account(),
        headers: mcpHeaders(await mcpSession(await account())),
      }),
  ],
  [
    'endMcpSession',
    404,
    async () => control('DELETE', '/_sandbox/mcp', { token: await account(), headers: mcpHeaders('nope') }),
  ],
];

/** The `Accept` an MCP client of Streamable HTTP sends. */
const MCP_ACCEPT = 'application/json, text/event-stream';
const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract-test', version: '1' } },
};

function mcpHeaders(session: string | undefined): Record<string, string> {
  return session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
}

/** A message to the sandbox's MCP endpoint, in a session when one is named. */
function mcp(token: string | undefined, message: unknown, session?: string) {
  return control('POST', '/_sandbox/mcp', {
    token,
    body: message,
    headers: { accept: MCP_ACCEPT, ...mcpHeaders(session) },
  });
}

/** Opens an MCP session with `token`; its id. */
async function mcpSession(token: string): Promise<string> {
  const opened = await mcp(token, MCP_INITIALIZE);
  return (opened.headers as Headers).get('mcp-session-id')!;
}

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

it('HEAD on a GET operation answers as the GET does, checks and headers included, without a body', async () => {
  const t = await account();
  const header = (response: ObservedResponse, name: string) => (response.headers as Headers).get(name);
  const get = await api('GET', '/books', { token: t });
  const head = await api('HEAD', '/books', { token: t });
  expect([head.status, head.body, header(head, 'x-ratelimit-remaining')]).toEqual([
    200,
    undefined,
    String(Number(header(get, 'x-ratelimit-remaining')) - 1),
  ]);
  const exported = await control('HEAD', '/_sandbox/receipts/export', { token: t });
  expect([exported.status, exported.body, header(exported, 'content-type')]).toEqual([
    200,
    undefined,
    'text/csv; charset=utf-8',
  ]);
  expect((await api('HEAD', '/books', { token: await tokenWith(t, ['write']) })).status).toBe(403);
});

describe('fault rules on the service API (sandbox.yaml, "Faults")', () => {
  const operations: Array<[operationId: string, method: string, path: string, body?: unknown]> = [
    ['listReceipts', 'GET', '/receipts'],
    ['createReceipt', 'POST', '/receipts', receiptBody()],
    ['getReceipt', 'GET', '/receipts/1'],
    ['updateReceipt', 'PUT', '/receipts/1', { model: 'Model 2' }],
    ['deleteReceipt', 'DELETE', '/receipts/1'],
    ['disposeReceipt', 'POST', '/receipts/1/dispose', dispositionWithAddressBody()],
    ['listBooks', 'GET', '/books'],
    ['listInventory', 'GET', '/inventory'],
    ['searchReceipts', 'GET', '/search', undefined],
    ['listWebhooks', 'GET', '/webhooks'],
    ['createWebhook', 'POST', '/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] }],
    ['deleteWebhook', 'DELETE', '/webhooks/1'],
  ];

  it('cover every operation of openapi.yaml, each at its method and path', () => {
    const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const documented = Object.values(document.paths).flatMap((item) =>
      Object.entries(item).flatMap(([method, operation]) =>
        operation.operationId === undefined ? [] : [`${operation.operationId} ${method.toUpperCase()}`],
      ),
    );
    expect(operations.map(([id, method]) => `${id} ${method}`).sort()).toEqual(documented.sort());
    for (const [id, method, path] of operations) expect(contract.operationFor(method, `/rest/v1${path}`)).toBe(id);
  });

  it.each(operations)(
    'fault %s by its operationId: the error shape, X-Sandbox-Fault and the rate-limit headers',
    async (operationId, method, path, body) => {
      const t = await account();
      const added = await fault(t, { operation: operationId, action: 'status', status: 503, retry_after: 3 });
      expect(added.status).toBe(201);
      const answer = await api(method, path, { token: t, body, query: path === '/search' ? { q: 'x' } : {} });
      const header = (name: string) => (answer.headers as Headers).get(name);
      expect([
        answer.status,
        header('x-sandbox-fault'),
        header('retry-after'),
        header('x-ratelimit-remaining'),
      ]).toEqual([503, String((added.body as { data: { id: number } }).data.id), '3', '59']);
      expect(answer.body).toEqual({
        message: expect.stringMatching(
          /^Injected by the sandbox's fault rule \d+: 503 before acting, so the request changed nothing\./,
        ),
      });
    },
  );
});

it('every documented (operation, status) pair was produced and validated', () => {
  expect(contract.documentedPairs().filter((pair) => !contract.seen.has(pair))).toEqual([]);
});
