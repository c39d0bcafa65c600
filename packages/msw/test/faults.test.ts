import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockLogbook, MockLogbookError } from '../src/index';
import { receiptBody } from '@fflkit/test-fixtures';

// The mock carries out what the core's fault rules decide: a network error for a dropped
// connection, a wait for a delay (ended when the client gives up), and manages rules and the
// request log through `mock.faults` and `mock.requests`.

const BASE_URL = 'https://logbook.example.test/rest/v1';
const mock = createMockLogbook({ baseUrl: BASE_URL, rateLimit: 0 });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

function post(token: string, serial: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${BASE_URL}/receipts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(receiptBody({ serial_number: serial })),
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('a fault rule on the mock', () => {
  it('drop answers a network error; after acting, the receipt is kept', async () => {
    const { token } = mock.createAccount();
    await mock.faults.add(token, { operation: 'createReceipt', action: 'drop', times: 1 });
    await mock.faults.add(token, { operation: 'createReceipt', action: 'drop', after_acting: true, times: 1 });
    await expect(post(token, 'MSW-1')).rejects.toThrow(TypeError);
    await expect(post(token, 'MSW-2')).rejects.toThrow(TypeError);
    expect((await post(token, 'MSW-3')).status).toBe(201);
    const created = await mock.requests(token, { operation: 'createReceipt' });
    expect(created.map((entry) => [entry.body?.serial_number, entry.status, entry.fault?.rule ?? null])).toEqual([
      ['MSW-3', 201, null],
      ['MSW-2', 0, 2],
      ['MSW-1', 0, 1],
    ]);
    expect((await mock.faults.list(token)).map((rule) => rule.fired)).toEqual([1, 1]);
  });

  it("a status answers the rule's error with X-Sandbox-Fault and Retry-After", async () => {
    const { token } = mock.createAccount();
    const rule = await mock.faults.add(token, {
      operation: 'createReceipt',
      action: 'status',
      status: 503,
      retry_after: 4,
    });
    const answer = await post(token, 'MSW-4');
    expect([answer.status, answer.headers.get('x-sandbox-fault'), answer.headers.get('retry-after')]).toEqual([
      503,
      String(rule.id),
      '4',
    ]);
    expect(await answer.json()).toEqual({
      message: expect.stringMatching(/^Injected by the sandbox's fault rule \d+: 503 before acting/),
    });
  });

  it('a delay holds the answer back until the client gives up, and the receipt is made on arrival', async () => {
    const { token } = mock.createAccount();
    await mock.faults.add(token, { operation: 'createReceipt', action: 'delay', delay_ms: 300_000 });
    const controller = new AbortController();
    const pending = post(token, 'MSW-5', controller.signal);
    let listed: unknown[] = [];
    for (let tries = 0; tries < 100 && listed.length === 0; tries += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      listed = await mock.requests(token, { operation: 'createReceipt' });
    }
    expect(listed).toHaveLength(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('faults.delete, faults.clear, and a rule the core refuses as a MockLogbookError', async () => {
    const { token } = mock.createAccount();
    const first = await mock.faults.add(token, { action: 'drop', probability: 0 });
    await mock.faults.add(token, { method: 'GET', action: 'delay', delay_ms: 1 });
    await mock.faults.delete(token, first.id);
    expect((await mock.faults.list(token)).map((rule) => rule.method)).toEqual(['GET']);
    await mock.faults.clear(token);
    expect(await mock.faults.list(token)).toEqual([]);
    const refused = await mock.faults
      .add(token, { operation: 'advanceClock', action: 'drop' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockLogbookError);
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: { operation: [expect.stringContaining('control calls are never faulted')] } },
    });
  });
});

describe('mock.requests(token, filter)', () => {
  it('rejects when the log dropped entries the filter could match', async () => {
    const { token } = mock.createAccount();
    for (let count = 0; count < 1001; count += 1)
      await fetch(`${BASE_URL}/books`, { headers: { authorization: `Bearer ${token}` } });
    const cut = await mock.requests(token, { method: 'GET' }).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(MockLogbookError);
    expect(cut).toMatchObject({
      status: 200,
      body: { truncated: true, dropped: 1 },
      message: expect.stringMatching(
        /^\[@fflkit\/msw\] GET \/_sandbox\/requests\?method=GET: the request log dropped entries/,
      ),
    });
    await expect(mock.requests(token, { from: '2999-01-01T00:00:00Z' })).resolves.toEqual([]);
  });
});
