import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, receiptBody, withAccount } from '../harness/harness';

// What an account's fault rules do to its requests of the service API, through the core's one
// entry point: the answer, the transport's instructions, the state, and the request log.

type Entry = { status: number; operation: string | null; fault: unknown };

async function faulted(rule: Record<string, unknown>, options: { rateLimit?: number } = {}) {
  const h = await withAccount({}, { rateLimit: options.rateLimit ?? 0 });
  const added = await h.control('POST', '/faults', { body: rule });
  if (added.status !== 201) throw new Error(`the rule was refused: ${JSON.stringify(added.body)}`);
  const log = async () => dataOf<Entry[]>(await h.control('GET', '/requests'));
  const receipts = async () => dataOf<{ serial_number: string }[]>(await h.control('GET', '/receipts'));
  return { ...h, log, receipts };
}

describe('a status rule', () => {
  it('before acting answers its status in the error shape, changes nothing, and is marked', async () => {
    const { api, core, log, receipts } = await faulted(
      { operation: 'createReceipt', action: 'status', status: 503, retry_after: 2 },
      { rateLimit: 60 },
    );
    const before = JSON.stringify(core.snapshot());
    const answer = await api('POST', '/receipts', { body: receiptBody() });
    expect(answer).toEqual({
      status: 503,
      headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-Sandbox-Fault': '1', 'Retry-After': '2' },
      body: {
        message:
          "Injected by the sandbox's fault rule 1: 503 before acting, so the request changed nothing. DELETE /_sandbox/faults/1 removes the rule.",
      },
      fault: { rule: 1, delayMs: 0, drop: false },
    });
    expect(JSON.stringify(core.snapshot())).toBe(before);
    expect(await receipts()).toEqual([]);
    expect(await log()).toEqual([
      expect.objectContaining({
        status: 503,
        operation: 'createReceipt',
        fault: { rule: 1, action: 'status', after_acting: false, delay_ms: 0, withheld_status: null },
      }),
    ]);
  });

  it('after acting keeps the change and says so, the status it withheld in the log', async () => {
    const { api, log, receipts } = await faulted({
      operation: 'createReceipt',
      action: 'status',
      status: 502,
      after_acting: true,
    });
    const answer = await api('POST', '/receipts', { body: receiptBody({ serial_number: 'KEPT-1' }) });
    expect([answer.status, answer.body]).toEqual([
      502,
      {
        message:
          "Injected by the sandbox's fault rule 1: 502 after acting: the request's change was made and kept (its answer was 201). DELETE /_sandbox/faults/1 removes the rule.",
      },
    ]);
    expect((await receipts()).map((receipt) => receipt.serial_number)).toEqual(['KEPT-1']);
    expect((await log())[0]).toMatchObject({
      status: 502,
      fault: { rule: 1, action: 'status', after_acting: true, withheld_status: 201 },
    });
  });

  it('after acting lets a refusal through and is not spent by it', async () => {
    const { api, control } = await faulted({
      operation: 'createReceipt',
      action: 'status',
      status: 500,
      after_acting: true,
      times: 1,
    });
    expect((await api('POST', '/receipts', { body: {} })).status).toBe(422);
    expect((await api('POST', '/receipts', { body: receiptBody() })).status).toBe(500);
    expect((await api('POST', '/receipts', { body: receiptBody({ serial_number: 'EXA-2' }) })).status).toBe(201);
    expect(dataOf<{ fired: number }[]>(await control('GET', '/faults'))[0]?.fired).toBe(1);
  });

  it('as a 429 carries Retry-After and X-RateLimit-Reset, one second unless told', async () => {
    const { api } = await faulted({ operation: 'listBooks', action: 'status', status: 429 }, { rateLimit: 60 });
    const answer = await api('GET', '/books');
    expect(answer.headers).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-Sandbox-Fault': '1',
      'Retry-After': '1',
      'X-RateLimit-Reset': String(Date.UTC(2025, 2, 14, 15, 4, 6) / 1000),
    });
  });

  it("as a 429 names the same moment in both headers, in real time, whatever the account's clock", async () => {
    const { api, control, clock } = await faulted({
      operation: 'listBooks',
      action: 'status',
      status: 429,
      retry_after: 30,
    });
    clock.ms += 999;
    await control('POST', '/clock/advance', { body: { seconds: 365 * 86_400 } });
    const { headers } = await api('GET', '/books');
    expect(headers['Retry-After']).toBe('30');
    expect(headers['X-RateLimit-Reset']).toBe(String(Math.floor(clock.ms / 1000) + 30));
  });
});

describe('a drop rule', () => {
  it('answers status 0 without a body for the transport to drop, before or after acting', async () => {
    const { api, control, log, receipts } = await faulted({
      operation: 'createReceipt',
      action: 'drop',
      times: 1,
      delay_ms: 25,
    });
    await control('POST', '/faults', { body: { operation: 'createReceipt', action: 'drop', after_acting: true } });
    expect(await api('POST', '/receipts', { body: receiptBody({ serial_number: 'LOST-1' }) })).toEqual({
      status: 0,
      headers: {},
      fault: { rule: 1, delayMs: 25, drop: true },
    });
    expect(await api('POST', '/receipts', { body: receiptBody({ serial_number: 'KEPT-2' }) })).toEqual({
      status: 0,
      headers: {},
      fault: { rule: 2, delayMs: 0, drop: true },
    });
    expect((await receipts()).map((receipt) => receipt.serial_number)).toEqual(['KEPT-2']);
    expect((await log()).map((entry) => [entry.status, entry.fault])).toEqual([
      [0, { rule: 2, action: 'drop', after_acting: true, delay_ms: 0, withheld_status: 201 }],
      [0, { rule: 1, action: 'drop', after_acting: false, delay_ms: 25, withheld_status: null }],
    ]);
  });
});

describe('a delay rule', () => {
  it('answers as usual, marked for the transport to hold back, a refusal too', async () => {
    const { api, log } = await faulted({ method: 'POST', path: '/receipts', action: 'delay', delay_ms: 1500 });
    const answer = await api('POST', '/receipts', { body: receiptBody() });
    expect([answer.status, answer.headers['X-Sandbox-Fault'], answer.fault]).toEqual([
      201,
      '1',
      { rule: 1, delayMs: 1500, drop: false },
    ]);
    const refused = await api('POST', '/receipts', { body: {} });
    expect([refused.status, refused.fault]).toEqual([422, { rule: 1, delayMs: 1500, drop: false }]);
    expect((await log()).map((entry) => [entry.status, entry.fault])).toEqual([
      [422, { rule: 1, action: 'delay', after_acting: false, delay_ms: 1500, withheld_status: null }],
      [201, { rule: 1, action: 'delay', after_acting: false, delay_ms: 1500, withheld_status: null }],
    ]);
  });
});

describe('where a rule sits in the order of checks', () => {
  it('never acts on a request without a valid token, which stays 401 and leaves the rule unspent', async () => {
    const { api, control, token } = await faulted({ action: 'status', status: 500 });
    expect((await api('GET', '/books', { token: 'sbx_unknown' })).status).toBe(401);
    expect((await api('GET', '/books', { headers: { authorization: '' }, token: undefined as never })).status).toBe(
      401,
    );
    expect(dataOf<{ fired: number }[]>(await control('GET', '/faults'))[0]?.fired).toBe(0);
    expect((await api('GET', '/books', { token })).status).toBe(500);
  });

  it("acts after the rate limit: a request over it gets the limit's 429, and a faulted one spends it", async () => {
    const { api, control } = await faulted({ operation: 'listBooks', action: 'status', status: 503 }, { rateLimit: 2 });
    expect((await api('GET', '/books')).headers['X-RateLimit-Remaining']).toBe('1');
    expect((await api('GET', '/books')).headers['X-RateLimit-Remaining']).toBe('0');
    const over = await api('GET', '/books');
    expect([over.status, over.body, over.fault]).toEqual([429, { message: 'Too Many Attempts.' }, undefined]);
    expect(dataOf<{ fired: number }[]>(await control('GET', '/faults'))[0]?.fired).toBe(2);
  });

  it('acts before 403, 415 and 404 of a record', async () => {
    const { api, control } = await faulted({ action: 'status', status: 504 });
    const reader = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string };
    expect((await api('POST', '/receipts', { token: reader.token, body: receiptBody() })).status).toBe(504);
    expect(
      (await api('POST', '/receipts', { rawBody: 'serial=1', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(504);
    expect((await api('GET', '/receipts/999999')).status).toBe(504);
  });

  it('never acts on an unknown route, nor on a control call, even when it matches every request', async () => {
    const { api, control } = await faulted({ action: 'drop' });
    expect((await api('GET', '/nothing-here')).status).toBe(404);
    expect((await api('GET', '/receipts/abc')).status).toBe(404);
    expect((await control('GET', '/clock')).status).toBe(200);
    expect((await control('GET', '/requests')).status).toBe(200);
    expect((await api('GET', '/books')).status).toBe(0);
  });
});

describe('what a rule matches', () => {
  it('by path, every method at it, and HEAD with GET', async () => {
    const { api, control } = await faulted({ path: '/receipts/{id}', action: 'status', status: 500 });
    const { id } = dataOf<{ id: number }>(await api('POST', '/receipts', { body: receiptBody() }));
    expect((await api('GET', `/receipts/${id}`)).status).toBe(500);
    const head = await api('HEAD', `/receipts/${id}`);
    expect([head.status, head.body]).toEqual([500, undefined]);
    expect((await api('PUT', `/receipts/${id}`, { body: { model: 'X' } })).status).toBe(500);
    expect((await api('POST', `/receipts/${id}/dispose`, { body: dispositionBody() })).status).toBe(200);
    await control('DELETE', '/faults');
    await control('POST', '/faults', { body: { method: 'DELETE', action: 'status', status: 502 } });
    expect((await api('DELETE', `/receipts/${id}`)).status).toBe(502);
    expect((await api('DELETE', '/webhooks/1')).status).toBe(502);
    expect((await api('GET', `/receipts/${id}`)).status).toBe(200);
  });

  it('one rule at most per request: the first in id order that fires', async () => {
    const { api, control, log } = await faulted({ operation: 'listBooks', action: 'status', status: 500, times: 1 });
    await control('POST', '/faults', { body: { action: 'delay', delay_ms: 5 } });
    await control('POST', '/faults', { body: { action: 'status', status: 503, after_acting: true } });
    expect((await api('GET', '/books')).status).toBe(500);
    const delayed = await api('GET', '/books');
    expect([delayed.status, delayed.fault?.rule]).toEqual([200, 2]);
    expect((await log()).map((entry) => (entry.fault as { rule: number }).rule)).toEqual([2, 1]);
    const rules = dataOf<{ fired: number }[]>(await control('GET', '/faults'));
    expect(rules.map((rule) => rule.fired)).toEqual([1, 1, 0]);
  });

  it("of one account never acts on another's requests", async () => {
    const { api, call } = await faulted({ operation: 'createReceipt', action: 'status', status: 503 });
    const { token } = (await call('POST', '/_sandbox/accounts')).body as { token: string };
    await call('POST', '/_sandbox/faults', {
      token,
      body: { operation: 'createReceipt', action: 'status', status: 500 },
    });
    expect((await api('POST', '/receipts', { body: receiptBody() })).status).toBe(503);
    expect((await call('POST', '/rest/v1/receipts', { token, body: receiptBody() })).status).toBe(500);
    expect(
      (await call('POST', '/rest/v1/webhooks', { token, body: { url: 'https://hooks.example.com/a', events: ['*'] } }))
        .status,
    ).toBe(201);
  });
});

describe('when a rule fires', () => {
  it('times times at most, then it stays listed, spent', async () => {
    const { api, control } = await faulted({ operation: 'listBooks', action: 'status', status: 500, times: 2 });
    const statuses = [];
    for (let count = 0; count < 4; count += 1) statuses.push((await api('GET', '/books')).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect(dataOf<{ fired: number; times: number }[]>(await control('GET', '/faults'))).toEqual([
      expect.objectContaining({ fired: 2, times: 2 }),
    ]);
  });

  it('never with probability 0, always with 1', async () => {
    const never = await faulted({ operation: 'listBooks', action: 'status', status: 500, probability: 0 });
    const always = await faulted({ operation: 'listBooks', action: 'status', status: 500, probability: 1 });
    for (let count = 0; count < 50; count += 1) {
      expect((await never.api('GET', '/books')).status).toBe(200);
      expect((await always.api('GET', '/books')).status).toBe(500);
    }
  });

  it('with a probability, the same requests meet the same faults for the same seed, on every core', async () => {
    const pattern = async (seed: number) => {
      const { api, control } = await faulted({
        operation: 'listBooks',
        action: 'status',
        status: 500,
        probability: 0.3,
        seed,
      });
      // A rule consulted for other operations does not draw for this one.
      await control('POST', '/faults', {
        body: { operation: 'listInventory', action: 'drop', probability: 0.5, seed },
      });
      const statuses: number[] = [];
      for (let count = 0; count < 200; count += 1) {
        statuses.push((await api('GET', '/books')).status);
        if (count % 3 === 0) await api('GET', '/inventory');
      }
      return statuses;
    };
    const first = await pattern(42);
    expect(await pattern(42)).toEqual(first);
    expect(await pattern(43)).not.toEqual(first);
    const fired = first.filter((status) => status === 500).length;
    expect(fired).toBeGreaterThan(40);
    expect(fired).toBeLessThan(80);
  });
});
