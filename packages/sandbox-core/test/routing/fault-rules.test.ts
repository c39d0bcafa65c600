import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, errorsOf, receiptBody, withAccount } from '../harness/harness';

// The control calls of fault rules: what a rule may say, strictly checked, and how rules are
// listed, deleted and cleared. What a rule does to requests is in fault-injection.test.ts.

describe('POST /_sandbox/faults', () => {
  it('adds a rule with its defaults and lists it', async () => {
    const { control } = await withAccount();
    const created = await control('POST', '/faults', {
      body: { operation: 'createReceipt', action: 'status', status: 429 },
    });
    const rule = {
      id: 1,
      operation: 'createReceipt',
      method: null,
      path: null,
      action: 'status',
      status: 429,
      retry_after: 1,
      delay_ms: 0,
      after_acting: false,
      times: null,
      probability: 1,
      seed: 0,
      fired: 0,
      created_at: '2025-03-14T15:04:05Z',
    };
    expect([created.status, dataOf(created)]).toEqual([201, rule]);
    const second = dataOf(
      await control('POST', '/faults', {
        body: {
          method: 'POST',
          path: '/receipts/{id}/dispose',
          action: 'drop',
          after_acting: true,
          times: 2,
          probability: 0.5,
          seed: 7,
          delay_ms: 10,
        },
      }),
    );
    expect(second).toMatchObject({
      id: 2,
      operation: null,
      method: 'POST',
      path: '/receipts/{id}/dispose',
      action: 'drop',
      status: null,
      retry_after: null,
      delay_ms: 10,
      after_acting: true,
      times: 2,
      probability: 0.5,
      seed: 7,
    });
    expect(dataOf<{ id: number }[]>(await control('GET', '/faults')).map((listed) => listed.id)).toEqual([1, 2]);
  });

  it.each([
    ['an unknown field', { action: 'drop', probabilty: 0.5 }, ['probabilty']],
    ['no action', {}, ['action']],
    ['an unknown action', { action: 'explode' }, ['action']],
    ['an operation that does not exist', { operation: 'createReciept', action: 'drop' }, ['operation']],
    ['a control call', { operation: 'advanceClock', action: 'drop' }, ['operation']],
    ['an operation with a path', { operation: 'createReceipt', path: '/receipts', action: 'drop' }, ['operation']],
    ['a path with /rest/v1', { path: '/rest/v1/receipts', action: 'drop' }, ['path']],
    ['a concrete path', { path: '/receipts/12', action: 'drop' }, ['path']],
    ['a control path', { path: '/_sandbox/clock/advance', action: 'drop' }, ['path']],
    ['a method the path does not take', { method: 'PUT', path: '/receipts/{id}/dispose', action: 'drop' }, ['method']],
    ['a method in lower case', { method: 'post', action: 'drop' }, ['method']],
    ['a status without its status', { action: 'status' }, ['status']],
    ['a status the rule cannot send', { action: 'status', status: 404 }, ['status']],
    ['a status on a drop', { action: 'drop', status: 503 }, ['status']],
    ['retry_after on a 500', { action: 'status', status: 500, retry_after: 5 }, ['retry_after']],
    ['a 429 after acting', { action: 'status', status: 429, after_acting: true }, ['after_acting']],
    ['a delay after acting', { action: 'delay', delay_ms: 10, after_acting: true }, ['after_acting']],
    ['a delay without its length', { action: 'delay' }, ['delay_ms']],
    ['a delay of 0', { action: 'delay', delay_ms: 0 }, ['delay_ms']],
    ['a delay over five minutes', { action: 'drop', delay_ms: 300_001 }, ['delay_ms']],
    ['a count of 0', { action: 'drop', times: 0 }, ['times']],
    ['a probability over 1', { action: 'drop', probability: 1.5 }, ['probability']],
    ['a negative probability', { action: 'drop', probability: -0.1 }, ['probability']],
    ['a probability as text', { action: 'drop', probability: '0.5' }, ['probability']],
    ['a seed that is not a whole number', { action: 'drop', probability: 0.5, seed: 1.5 }, ['seed']],
    ['after_acting as text', { action: 'drop', after_acting: 'yes' }, ['after_acting']],
  ])('refuses %s with 422 on its field, and adds nothing', async (_name, body, fields) => {
    const { control } = await withAccount();
    const refused = await control('POST', '/faults', { body });
    expect([refused.status, Object.keys(errorsOf(refused))]).toEqual([422, fields]);
    expect(dataOf(await control('GET', '/faults'))).toEqual([]);
  });

  it('says what to do about a 429 after acting and an unknown operation', async () => {
    const { control } = await withAccount();
    const twice = await control('POST', '/faults', {
      body: { operation: 'createReciept', action: 'status', status: 429, after_acting: true },
    });
    expect(errorsOf(twice)).toEqual({
      operation: [
        expect.stringMatching(
          /^The operation field must name an operation of the service API, such as createReceipt; createReciept is none \(control calls are never faulted\)\. The operations are listReceipts, createReceipt, /,
        ),
      ],
      after_acting: [
        'The after acting field cannot go with a 429, which says that the service did not act: use 500, 502, 503 or 504, or drop.',
      ],
    });
  });

  it('accepts probabilities 0 and 1, and answers 409 past 100 rules', async () => {
    const { control } = await withAccount();
    for (const probability of [0, 1])
      expect((await control('POST', '/faults', { body: { action: 'drop', probability } })).status).toBe(201);
    for (let count = 2; count < 100; count += 1)
      await control('POST', '/faults', { body: { action: 'drop', probability: 0 } });
    const over = await control('POST', '/faults', { body: { action: 'drop' } });
    expect([over.status, (over.body as { message: string }).message]).toEqual([
      409,
      'The account holds 100 fault rules, the most it may: delete those it no longer needs (DELETE /_sandbox/faults/{id}, or DELETE /_sandbox/faults for all).',
    ]);
  });
});

describe('DELETE /_sandbox/faults and /_sandbox/faults/{id}', () => {
  it('deletes one rule, 404 for one the account does not have, and then all', async () => {
    const { control, call } = await withAccount();
    const { token: otherToken } = (await call('POST', '/_sandbox/accounts')).body as { token: string };
    const otherControl = (method: string, path: string, body?: unknown) =>
      call(method, `/_sandbox${path}`, { token: otherToken, body });
    for (const operation of ['createReceipt', 'disposeReceipt', 'createWebhook'])
      await control('POST', '/faults', { body: { operation, action: 'drop' } });
    const theirs = dataOf<{ id: number }>(await otherControl('POST', '/faults', { action: 'drop' }));
    expect((await control('DELETE', '/faults/2')).status).toBe(204);
    const missing = await control('DELETE', '/faults/2');
    expect([missing.status, missing.body]).toEqual([
      404,
      { message: 'The account has no fault rule 2: GET /_sandbox/faults lists its rules.' },
    ]);
    expect((await control('DELETE', `/faults/${theirs.id}`)).status).toBe(404);
    expect(dataOf<{ id: number }[]>(await control('GET', '/faults')).map((rule) => rule.id)).toEqual([1, 3]);
    expect((await control('DELETE', '/faults')).status).toBe(204);
    expect(dataOf(await control('GET', '/faults'))).toEqual([]);
    expect(dataOf(await otherControl('GET', '/faults'))).toHaveLength(1);
  });

  it('POST /_sandbox/reset deletes the rules too, and the requests act again', async () => {
    const { api, control } = await withAccount();
    await control('POST', '/faults', { body: { operation: 'createReceipt', action: 'status', status: 503 } });
    expect((await api('POST', '/receipts', { body: receiptBody() })).status).toBe(503);
    expect((await control('POST', '/reset')).status).toBe(204);
    expect(dataOf(await control('GET', '/faults'))).toEqual([]);
    expect((await api('POST', '/receipts', { body: receiptBody() })).status).toBe(201);
  });

  it('keeps rules out of snapshots and fixtures, and a faulted request out of the version', async () => {
    const { api, control, core } = await withAccount();
    const before = core.version;
    await control('POST', '/faults', { body: { operation: 'disposeReceipt', action: 'drop' } });
    expect(core.version).toBe(before);
    expect(JSON.stringify(core.snapshot())).not.toContain('disposeReceipt');
    expect(JSON.stringify((await control('GET', '/fixtures')).body)).not.toMatch(/drop|fault/);
    const receipt = dataOf<{ id: number }>(await api('POST', '/receipts', { body: receiptBody() }));
    const version = core.version;
    expect((await api('POST', `/receipts/${receipt.id}/dispose`, { body: dispositionBody() })).status).toBe(0);
    expect(core.version).toBe(version);
  });
});
