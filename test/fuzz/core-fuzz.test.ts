import { createSandboxCore, type SandboxCore, type SandboxRequest, type SandboxResponse } from '@fflkit/sandbox-core';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import type { SandboxRequestLogEntry } from '@fflkit/types';
import { readFileSync } from 'node:fs';
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
  /** Every service API request of the world's accounts, as logged. */
  logged: SandboxRequestLogEntry[];
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
    core.handle({
      method,
      path,
      query: '',
      headers: { authorization: `Bearer ${full}`, host: 'sandbox.test' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const tokenWith = async (permissions: string[]) =>
    ((await send('POST', '/_sandbox/tokens', { permissions })).body as { token: string }).token;
  const receiptIds: number[] = [];
  for (let i = 0; i < 3; i += 1)
    receiptIds.push(
      ((await send('POST', '/rest/v1/receipts', receiptBody())).body as { data: { id: number } }).data.id,
    );
  await send('POST', `/rest/v1/receipts/${receiptIds[0]}/dispose`, dispositionWithAddressBody());
  const webhookId = (
    (await send('POST', '/rest/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).body as {
      data: { id: number };
    }
  ).data.id;
  const logged: SandboxRequestLogEntry[] = [];
  for (const token of [full, collector])
    core.watch(`Bearer ${token}`, (event) => event.event === 'request' && logged.push(event.data));
  return {
    core,
    logged,
    tokens: { full, read: await tokenWith(['read']), none: await tokenWith([]), collector },
    receiptIds,
    webhookId,
  };
}

/** The methods and paths of a contract (`@fflkit/types`' JSON copy), under `prefix`, with each operation's id. */
function contractRoutes(document: string, prefix: string): Array<readonly [string, string, string]> {
  const { paths } = JSON.parse(
    readFileSync(new URL(`../../packages/types/contract/${document}`, import.meta.url), 'utf8'),
  ) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => [method.toUpperCase(), `${prefix}${path}`, operation.operationId ?? ''] as const),
  );
}

/**
 * The routes of the contracts that the core answers: every one but those the sandbox's server
 * answers itself (health, the event stream, the MCP endpoint, the receiver check), read from the
 * contracts so that a route added there is fuzzed at once.
 */
const SERVER_ANSWERED = [
  'GET /_sandbox/health',
  'GET /_sandbox/events',
  'POST /_sandbox/mcp',
  'DELETE /_sandbox/mcp',
  'POST /_sandbox/receiver-check',
];
const SERVICE_ROUTES = contractRoutes('openapi.json', '/rest/v1');
const ROUTES = [...SERVICE_ROUTES, ...contractRoutes('sandbox.json', '')]
  .filter(([method, path]) => !SERVER_ANSWERED.includes(`${method} ${path}`))
  .map(([method, path]) => [method, path] as const);

/** The operations of the service API, which fault rules name. */
const OPERATIONS = SERVICE_ROUTES.map(([, , operationId]) => operationId);

/** A valid fault rule: any match, any action, fired every time, a few times, or by a seeded draw. */
const faultRule = fc
  .record({
    match: fc.oneof(
      fc.constantFrom(...OPERATIONS).map((operation) => ({ operation })),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE').map((method) => ({ method })),
      fc.constantFrom({ path: '/receipts/{id}' }, { method: 'POST', path: '/receipts/{id}/dispose' }, {}),
    ),
    // After acting weighs more: it fires only on an operation that succeeded.
    effect: fc.oneof(
      fc.record({ action: fc.constant('status'), status: fc.constantFrom(500, 502, 503, 504) }),
      {
        arbitrary: fc.record({
          action: fc.constant('status'),
          status: fc.constantFrom(500, 502, 503, 504),
          after_acting: fc.constant(true),
        }),
        weight: 3,
      },
      fc.record({
        action: fc.constant('status'),
        status: fc.constant(429),
        retry_after: fc.integer({ min: 0, max: 5 }),
      }),
      { arbitrary: fc.record({ action: fc.constant('drop') }), weight: 2 },
      {
        arbitrary: fc.record({
          action: fc.constant('drop'),
          after_acting: fc.constant(true),
          delay_ms: fc.integer({ min: 0, max: 10 }),
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({ action: fc.constant('delay'), delay_ms: fc.integer({ min: 1, max: 300_000 }) }),
        weight: 2,
      },
    ),
    probability: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    seed: fc.integer({ min: 0, max: 0xffff_ffff }),
    times: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  })
  .map(({ match, effect, probability, seed, times }) => ({
    ...match,
    ...effect,
    probability,
    seed,
    ...(times === undefined ? {} : { times }),
  }));

const QUERY_NAMES = [
  'page',
  'per_page',
  'book',
  'status',
  'serial_number',
  'manufacturer',
  'since',
  'q',
  'field',
  'method',
  'path',
  'operation',
  'from',
  'to',
  'faulted',
  'body',
  '__proto__',
  'constructor',
];

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
      replace: fc.dictionary(fc.constantFrom(...Object.keys(base), '__proto__', 'constructor', 'prototype'), anyValue, {
        maxKeys: 3,
      }),
    })
    .map(({ drop, replace }) => {
      const body: Record<string, unknown> = { ...base };
      for (const key of drop) delete body[key];
      return (
        JSON.stringify(body).slice(0, -1) + (Object.keys(body).length ? ',' : '') + JSON.stringify(replace).slice(1)
      );
    });

const rawBody = fc.oneof(
  mutatedBody(receiptBody() as Record<string, unknown>),
  mutatedBody(dispositionWithAddressBody() as Record<string, unknown>),
  mutatedBody({
    accounts: [{ tokens: [{ token: 'sbx_fuzz00000000000000000001' }], receipts: [receiptBody()] }],
    $schema: 'x',
  }),
  mutatedBody({ url: 'https://hooks.example.com/x', events: ['*'], permissions: ['read'], name: 'Main', seconds: 60 }),
  mutatedBody({ reorder: { window: 3, hold_ms: 500 }, duplicate: 0.5, delay_ms: 100, seed: 7 }),
  mutatedBody({
    operation: 'createReceipt',
    action: 'status',
    status: 503,
    after_acting: true,
    times: 1,
    probability: 0.5,
    seed: 7,
    delay_ms: 0,
  }),
  faultRule.map((rule) => JSON.stringify(rule)),
  fc.json(),
  fc.string(),
  fc.constantFrom(
    '{',
    '{"a":',
    'null',
    '[]',
    '"text"',
    '1e999',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
  ),
  fc.integer({ min: 1, max: 2000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 300 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constant(undefined),
);

function requestArbitrary(w: World): fc.Arbitrary<SandboxRequest> {
  return fc
    .record({
      route: fc.constantFrom(...ROUTES),
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), { freq: 5 }),
      id: fc.oneof(
        fc.constantFrom(...w.receiptIds, w.webhookId),
        fc.integer({ min: -5, max: 1e9 }).map(String),
        fc.uuid(),
        fc.constantFrom('abc', '1.5', '0x10', '%00', '1e3', ''),
      ),
      query: fc.dictionary(
        fc.constantFrom(...QUERY_NAMES),
        fc.oneof(
          fc.string(),
          fc.integer().map(String),
          fc.constantFrom('on_hand', 'disposed', '2025-01-01T00:00:00+00:00', 'Main'),
        ),
        { maxKeys: 4 },
      ),
      repeat: fc.boolean(),
      auth: fc.constantFrom(
        `Bearer ${w.tokens.full}`,
        `Bearer ${w.tokens.read}`,
        `Bearer ${w.tokens.none}`,
        `Bearer ${w.tokens.collector}`,
        'Bearer sbx_nope',
        'Bearer',
        'Basic Zm9vOmJhcg==',
        undefined,
      ),
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

/** A request of the service API with the full token, most often with a valid body, so that operations succeed and rules after acting fire. */
function apiRequestArbitrary(w: World): fc.Arbitrary<SandboxRequest> {
  const valid = fc.constantFrom(
    JSON.stringify(receiptBody()),
    JSON.stringify(receiptBody()),
    JSON.stringify(dispositionWithAddressBody()),
    JSON.stringify({ url: 'https://hooks.example.com/y', events: ['*'] }),
    JSON.stringify({ model: 'Model 9' }),
  );
  return fc
    .record({
      route: fc.constantFrom(...ROUTES.filter(([, path]) => path.startsWith('/rest/v1/'))),
      id: fc.constantFrom(...w.receiptIds, w.webhookId),
      body: fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: rawBody, weight: 1 }),
    })
    .map(({ route, id, body }) => ({
      method: route[0],
      path: route[1].replace('{id}', String(id)),
      query: route[1].endsWith('/search') ? 'q=Example' : '',
      headers: { authorization: `Bearer ${w.tokens.full}`, host: 'sandbox.test', 'content-type': 'application/json' },
      body: route[0] === 'GET' || route[0] === 'DELETE' ? undefined : body,
    }));
}

/** A faulted answer: a dropped connection (status 0, nothing else), or the contract's error body naming its rule. */
function expectFaulted(response: SandboxResponse): void {
  if (response.fault!.drop) {
    expect([response.status, response.headers, response.body]).toEqual([0, {}, undefined]);
    return;
  }
  expect(response.headers['X-Sandbox-Fault']).toBe(String(response.fault!.rule));
  // A rule's own status (a delay leaves the operation's answer as it is); HEAD has no body.
  if ((response.status >= 500 || response.status === 429) && response.body !== undefined) {
    const body: unknown = response.body;
    expect(body).toEqual({ message: expect.stringMatching(/^Injected by the sandbox's fault rule \d+: /) });
  }
}

/** Whether the answer is a rule's that acted after the operation, whose change is kept by design. */
function afterActing(w: World, response: SandboxResponse): boolean {
  return response.fault !== undefined && w.logged.at(-1)?.fault?.after_acting === true;
}

/**
 * What holds of every answer: a faulted one is a dropped connection or names its rule, and only
 * on the service API; any other is never a 5xx and matches the contract; a rejection changes
 * nothing, unless a rule failed the answer after the operation acted.
 */
function expectSound(w: World, request: SandboxRequest, response: SandboxResponse, before: string): void {
  const operationId = contract.operationFor(request.method, request.path);
  if (response.fault !== undefined) {
    expect(request.path.startsWith('/rest/v1/')).toBe(true);
    expectFaulted(response);
  } else {
    expect(response.status).toBeLessThan(500);
    if (operationId !== undefined && response.status !== 404) {
      expect(contract.check(operationId, response)).toEqual([]);
    } else {
      expect(response.body).toMatchObject({ message: expect.any(String) });
    }
  }
  if (response.status >= 400 && !afterActing(w, response)) expect(JSON.stringify(w.core.snapshot())).toBe(before);
  if (response.status === 0 || response.status >= 500)
    expect(w.logged.at(-1)?.fault).toMatchObject({ rule: response.fault?.rule });
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

/** Sends a control call with the world's full token. */
function control(w: World, method: string, path: string, body?: unknown) {
  return w.core.handle({
    method,
    path,
    query: '',
    headers: { authorization: `Bearer ${w.tokens.full}`, host: 'sandbox.test' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Record numbers contiguous per book from 1, and each book's counts matching its lists. Answers
 * whether the counts could be read: not when the requests revoked the reading token or deleted
 * its account, which a caller counts, so that the check is seen to run.
 */
async function expectConsistentBooks(w: World): Promise<boolean> {
  const snapshot = w.core.snapshot() as unknown as {
    receipts: Array<{ user_id: number; book: string; record: number }>;
    deleted_receipts: Array<{ user_id: number; book: string; record: number }>;
  };
  const records = new Map<string, number[]>();
  for (const receipt of [...snapshot.receipts, ...snapshot.deleted_receipts]) {
    const key = `${receipt.user_id}/${receipt.book}`;
    records.set(key, [...(records.get(key) ?? []), receipt.record]);
  }
  for (const numbers of records.values()) {
    expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
  }

  // The requests may have added fault rules; the reads that check the books must not meet them.
  await control(w, 'DELETE', '/_sandbox/faults');
  const read = async (path: string, query = '') =>
    (
      await w.core.handle({
        method: 'GET',
        path,
        query,
        headers: { authorization: `Bearer ${w.tokens.full}`, host: 'sandbox.test' },
      })
    ).body as any;
  const books = await read('/rest/v1/books');
  if (books.data === undefined) return false;
  for (const book of books.data) {
    const page = await read('/rest/v1/receipts', `book=${encodeURIComponent(book.name)}&per_page=200`);
    expect(book.record_count).toBe(page.meta.total);
    expect(book.on_hand_count + book.disposed_count).toBe(book.record_count);
  }
  return true;
}

describe('sandbox-core under random requests', () => {
  it('never answers 5xx, always answers as the contract says, and a rejection changes nothing', async () => {
    const w = await world();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(w), async (request) => {
        // A rule a request added acts on this one alone, so that rules do not pile up over the runs.
        await control(w, 'DELETE', '/_sandbox/faults');
        const before = JSON.stringify(w.core.snapshot());
        expectSound(w, request, await w.core.handle(request), before);
      }),
      { numRuns: 1500 },
    );
  });

  it('keeps books consistent: record numbers contiguous per book, counts matching the lists', async () => {
    // Each run starts from a fresh world; world() is deterministic, so its ids and tokens are the
    // ones the requests were generated with.
    const template = await world();
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(requestArbitrary(template), { maxLength: 25 }), async (requests) => {
        const w = await world();
        for (const request of requests) await w.core.handle(request);
        if (await expectConsistentBooks(w)) counted += 1;
      }),
      { numRuns: 100 },
    );
    // Most runs keep their reading token: the counts were checked, not skipped.
    expect(counted).toBeGreaterThan(50);
  });

  it('under random fault rules: only faulted answers fail, a change after acting is kept, and the books stay consistent', async () => {
    const template = await world();
    const kinds = new Map<string, number>();
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(faultRule, { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.oneof(
            { arbitrary: apiRequestArbitrary(template), weight: 3 },
            { arbitrary: requestArbitrary(template), weight: 1 },
          ),
          { minLength: 5, maxLength: 25 },
        ),
        async (rules, requests) => {
          const w = await world();
          for (const rule of rules) expect((await control(w, 'POST', '/_sandbox/faults', rule)).status).toBe(201);
          for (const request of requests) {
            const before = JSON.stringify(w.core.snapshot());
            const response = await w.core.handle(request);
            expectSound(w, request, response, before);
            const fault = response.fault === undefined ? undefined : w.logged.at(-1)?.fault;
            if (fault) {
              const kind = `${fault.action}${fault.after_acting ? ' after acting' : ''}`;
              kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
            }
          }
          if (await expectConsistentBooks(w)) counted += 1;
        },
      ),
      { numRuns: 150 },
    );
    expect(counted).toBeGreaterThan(75);
    // Every kind of rule did act: a property that never met one would prove nothing of it.
    expect([...kinds.keys()].sort()).toEqual(['delay', 'drop', 'drop after acting', 'status', 'status after acting']);
    for (const count of kinds.values()) expect(count).toBeGreaterThanOrEqual(3);
  });
});
