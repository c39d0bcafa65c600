import { createSandboxCore, type SandboxCore, type SandboxRequest } from '@boundbook/sandbox-core';
import { dispositionWithAddressBody, receiptBody } from '@boundbook/test-fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractValidator } from '../support/contract-validator';

// Property-based fuzzing of every endpoint through sandbox-core: random and mutated bodies,
// query strings and headers. Whatever arrives, the answer is never a 5xx, always matches the
// contract, and a rejected request changes nothing.

const contract = new ContractValidator(new URL('../../openapi/', import.meta.url));
const NOW = Date.parse('2026-03-14T15:00:00Z');

interface World {
  core: SandboxCore;
  tokens: { full: string; read: string; none: string; collector: string };
  receiptIds: number[];
  webhookId: number;
}

async function world(): Promise<World> {
  let bytes = 0;
  const core = createSandboxCore({
    now: () => NOW,
    randomBytes: (length) => Uint8Array.from({ length }, () => (bytes = (bytes * 31 + 7) % 251)),
    rateLimit: 0,
  });
  const { token: full } = core.createAccount({ books: ['Consignments'] });
  const { token: collector } = core.createAccount({ account_type: 'collector' });
  const send = (method: string, path: string, body?: unknown) =>
    core.handle({ method, path, query: '', headers: { authorization: `Bearer ${full}`, host: 'sandbox.test' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const tokenWith = async (permissions: string[]) => ((await send('POST', '/_sandbox/tokens', { permissions })).body as { token: string }).token;
  const receiptIds: number[] = [];
  for (let i = 0; i < 3; i += 1) receiptIds.push(((await send('POST', '/rest/v1/receipts', receiptBody())).body as { data: { id: number } }).data.id);
  await send('POST', `/rest/v1/receipts/${receiptIds[0]}/dispose`, dispositionWithAddressBody());
  const webhookId = ((await send('POST', '/rest/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).body as { data: { id: number } }).data.id;
  return { core, tokens: { full, read: await tokenWith(['read']), none: await tokenWith([]), collector }, receiptIds, webhookId };
}

const ROUTES = [
  ['GET', '/rest/v1/receipts'], ['POST', '/rest/v1/receipts'], ['GET', '/rest/v1/receipts/{id}'],
  ['PUT', '/rest/v1/receipts/{id}'], ['DELETE', '/rest/v1/receipts/{id}'], ['POST', '/rest/v1/receipts/{id}/dispose'],
  ['GET', '/rest/v1/books'], ['GET', '/rest/v1/inventory'], ['GET', '/rest/v1/search'],
  ['GET', '/rest/v1/webhooks'], ['POST', '/rest/v1/webhooks'], ['DELETE', '/rest/v1/webhooks/{id}'],
  ['POST', '/_sandbox/accounts'], ['POST', '/_sandbox/tokens'], ['DELETE', '/_sandbox/tokens/{id}'],
  ['POST', '/_sandbox/books'], ['GET', '/_sandbox/clock'], ['POST', '/_sandbox/clock/advance'],
  ['GET', '/_sandbox/receipts/{id}/audit'], ['POST', '/_sandbox/receipts/{id}/documents'],
  ['PUT', '/_sandbox/receipts/{id}/e4473'], ['GET', '/_sandbox/requests'],
  ['GET', '/_sandbox/deliveries'], ['POST', '/_sandbox/deliveries/{id}/redeliver'],
  ['POST', '/_sandbox/webhooks/{id}/ping'], ['POST', '/_sandbox/webhooks/{id}/enable'],
  ['PUT', '/_sandbox/webhooks/{id}/chaos'], ['DELETE', '/_sandbox/webhooks/{id}/chaos'],
  ['GET', '/_sandbox/tokens'], ['GET', '/_sandbox/webhooks'], ['GET', '/_sandbox/receipts'],
  ['GET', '/_sandbox/receipts/export'], ['POST', '/_sandbox/fixtures'], ['GET', '/_sandbox/fixtures'], ['GET', '/_sandbox/books'],
] as const;

const QUERY_NAMES = ['page', 'per_page', 'book', 'status', 'serial_number', 'manufacturer', 'since', 'q', 'field', '__proto__', 'constructor'];

const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(''),
  fc.constant('   '),
  fc.constant('2025-02-30'),
  fc.constant('9-99-999-01-6A-00001'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

/** A valid body with fields dropped, replaced or added, including prototype keys. */
const mutatedBody = (base: Record<string, unknown>) =>
  fc
    .record({
      drop: fc.subarray(Object.keys(base)),
      replace: fc.dictionary(fc.constantFrom(...Object.keys(base), '__proto__', 'constructor', 'prototype'), anyValue, { maxKeys: 3 }),
    })
    .map(({ drop, replace }) => {
      const body: Record<string, unknown> = { ...base };
      for (const key of drop) delete body[key];
      return JSON.stringify(body).slice(0, -1) + (Object.keys(body).length ? ',' : '') + JSON.stringify(replace).slice(1);
    });

const rawBody = fc.oneof(
  mutatedBody(receiptBody() as Record<string, unknown>),
  mutatedBody(dispositionWithAddressBody() as Record<string, unknown>),
  mutatedBody({ accounts: [{ tokens: [{ token: 'sbx_fuzz00000000000000000001' }], receipts: [receiptBody()] }], $schema: 'x' }),
  mutatedBody({ url: 'https://hooks.example.com/x', events: ['*'], permissions: ['read'], name: 'Main', seconds: 60 }),
  mutatedBody({ reorder: { window: 3, hold_ms: 500 }, duplicate: 0.5, delay_ms: 100, seed: 7 }),
  fc.json(),
  fc.string(),
  fc.constantFrom('{', '{"a":', 'null', '[]', '"text"', '1e999', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'),
  fc.integer({ min: 1, max: 2000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 300 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  fc.constant(undefined),
);

function requestArbitrary(w: World): fc.Arbitrary<SandboxRequest> {
  return fc
    .record({
      route: fc.constantFrom(...ROUTES),
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), { freq: 5 }),
      id: fc.oneof(fc.constantFrom(...w.receiptIds, w.webhookId), fc.integer({ min: -5, max: 1e9 }).map(String), fc.uuid(), fc.constantFrom('abc', '1.5', '0x10', '%00', '1e3', '')),
      query: fc.dictionary(fc.constantFrom(...QUERY_NAMES), fc.oneof(fc.string(), fc.integer().map(String), fc.constantFrom('on_hand', 'disposed', '2025-01-01T00:00:00+00:00', 'Main')), { maxKeys: 4 }),
      repeat: fc.boolean(),
      auth: fc.constantFrom(`Bearer ${w.tokens.full}`, `Bearer ${w.tokens.read}`, `Bearer ${w.tokens.none}`, `Bearer ${w.tokens.collector}`, 'Bearer sbx_nope', 'Bearer', 'Basic Zm9vOmJhcg==', undefined),
      body: rawBody,
    })
    .map(({ route, method, id, query, repeat, auth, body }) => {
      const params = new URLSearchParams(query);
      if (repeat && [...params.keys()].length > 0) params.append([...params.keys()][0]!, '2');
      return {
        method: method ?? route[0],
        path: route[1].replace('{id}', String(id)),
        query: params.toString(),
        headers: { authorization: auth, host: 'sandbox.test', 'content-type': 'application/json' },
        body,
      };
    });
}

describe('sandbox-core under random requests', () => {
  it('never answers 5xx, always answers as the contract says, and a rejection changes nothing', async () => {
    const w = await world();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(w), async (request) => {
        const before = JSON.stringify(w.core.snapshot());
        const response = await w.core.handle(request);
        expect(response.status).toBeLessThan(500);
        const operationId = contract.operationFor(request.method, request.path);
        if (operationId !== undefined && response.status !== 404) {
          expect(contract.check(operationId, response)).toEqual([]);
        } else {
          expect(response.body).toMatchObject({ message: expect.any(String) });
        }
        if (response.status >= 400) expect(JSON.stringify(w.core.snapshot())).toBe(before);
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { numRuns: 1500 },
    );
  });

  it('keeps books consistent: record numbers contiguous per book, counts matching the lists', async () => {
    // Each run starts from a fresh world; world() is deterministic, so its ids and tokens are the
    // ones the requests were generated with.
    const template = await world();
    await fc.assert(
      fc.asyncProperty(fc.array(requestArbitrary(template), { maxLength: 25 }), async (requests) => {
        const w = await world();
        for (const request of requests) await w.core.handle(request);

        const snapshot = w.core.snapshot() as unknown as { receipts: Array<{ user_id: number; book: string; record: number }>; deleted_receipts: Array<{ user_id: number; book: string; record: number }> };
        const records = new Map<string, number[]>();
        for (const receipt of [...snapshot.receipts, ...snapshot.deleted_receipts]) {
          const key = `${receipt.user_id}/${receipt.book}`;
          records.set(key, [...(records.get(key) ?? []), receipt.record]);
        }
        for (const numbers of records.values()) {
          expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
        }

        const read = async (path: string, query = '') =>
          (await w.core.handle({ method: 'GET', path, query, headers: { authorization: `Bearer ${w.tokens.full}`, host: 'sandbox.test' } })).body as any;
        const books = await read('/rest/v1/books');
        if (books.data === undefined) return; // one of the requests revoked the reading token
        for (const book of books.data) {
          const page = await read('/rest/v1/receipts', `book=${encodeURIComponent(book.name)}&per_page=200`);
          expect(book.record_count).toBe(page.meta.total);
          expect(book.on_hand_count + book.disposed_count).toBe(book.record_count);
        }
      }),
      { numRuns: 100 },
    );
  });
});
