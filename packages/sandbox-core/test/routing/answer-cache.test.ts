import { describe, expect, it, vi } from 'vitest';
import { AnswerCache } from '../../src/routing/answer-cache';
import type { AccountContext, AccountOperation } from '../../src/state/operation';
import { receiptBody, withAccount } from '../harness/harness';

/** A context with only what the cache reads: the store's revision, the account and the request. */
function contextFor(accountId: number, query: string, store = { revision: 1 }, host = 'sandbox.test'): AccountContext {
  const request = { method: 'GET', path: '/rest/v1/receipts', query, headers: { host } };
  return { store, account: { record: { id: accountId } }, request } as unknown as AccountContext;
}

const listing = (): AccountOperation => vi.fn(() => ({ status: 200, body: { data: [{ id: 1 }], meta: { total: 1 } } }));

describe('AnswerCache', () => {
  it('answer(operation, context) runs the operation once and then answers the same frozen result', () => {
    const answers = new AnswerCache();
    const operation = listing();
    const first = answers.answer(operation, contextFor(1, ''));
    expect(answers.answer(operation, contextFor(1, ''))).toBe(first);
    expect(operation).toHaveBeenCalledTimes(1);
    expect(Object.isFrozen(first.body)).toBe(true);
    expect(Object.isFrozen((first.body as { meta: object }).meta)).toBe(true);
  });

  it('answer(operation, context) runs the operation again for another account, query or origin', () => {
    const answers = new AnswerCache();
    const operation = listing();
    answers.answer(operation, contextFor(1, ''));
    answers.answer(operation, contextFor(2, ''));
    answers.answer(operation, contextFor(1, 'page=2'));
    answers.answer(operation, contextFor(1, '', { revision: 1 }, 'other.test'));
    expect(operation).toHaveBeenCalledTimes(4);
  });

  it('answer(operation, context) runs the operation again once the version moved', () => {
    const answers = new AnswerCache();
    const operation = listing();
    const store = { revision: 1 };
    answers.answer(operation, contextFor(1, '', store));
    store.revision += 1;
    answers.answer(operation, contextFor(1, '', store));
    expect(operation).toHaveBeenCalledTimes(2);
    expect(answers.size).toBe(1);
  });

  it('answer(operation, context) keeps at most limit answers, dropping the least recently used', () => {
    const answers = new AnswerCache(2);
    const operation = listing();
    answers.answer(operation, contextFor(1, 'page=1'));
    answers.answer(operation, contextFor(1, 'page=2'));
    answers.answer(operation, contextFor(1, 'page=1'));
    answers.answer(operation, contextFor(1, 'page=3'));
    expect(answers.size).toBe(2);
    answers.answer(operation, contextFor(1, 'page=1'));
    expect(operation).toHaveBeenCalledTimes(3);
    answers.answer(operation, contextFor(1, 'page=2'));
    expect(operation).toHaveBeenCalledTimes(4);
  });
});

describe('GET /rest/v1/receipts from the answer cache', () => {
  it('answers the same body object to a repeated request, with fresh rate-limit headers', async () => {
    const { api } = await withAccount({}, { rateLimit: 5 });
    await api('POST', '/receipts', { body: receiptBody() });
    const first = await api('GET', '/receipts');
    const second = await api('GET', '/receipts');
    expect(second.body).toBe(first.body);
    expect(first.headers['X-RateLimit-Remaining']).toBe('3');
    expect(second.headers['X-RateLimit-Remaining']).toBe('2');
  });

  it('answers anew after a write in the same account', async () => {
    const { api } = await withAccount({}, { rateLimit: 0 });
    const before = await api('GET', '/receipts');
    await api('POST', '/receipts', { body: receiptBody() });
    const after = await api('GET', '/receipts');
    expect(after.body).not.toBe(before.body);
    expect((after.body as { meta: { total: number } }).meta.total).toBe(1);
  });

  it('answers anew after a write in another account', async () => {
    const world = await withAccount({}, { rateLimit: 0 });
    const before = await world.api('GET', '/receipts');
    const other = await world.call('POST', '/_sandbox/accounts', { body: {} });
    const otherToken = (other.body as { token: string }).token;
    await world.call('POST', '/rest/v1/receipts', { token: otherToken, body: receiptBody() });
    const after = await world.api('GET', '/receipts');
    expect(after.body).not.toBe(before.body);
    expect(after.body).toEqual(before.body);
  });

  it('still logs every request and still refuses a request without a valid token', async () => {
    const { api, control, call } = await withAccount({}, { rateLimit: 0 });
    await api('GET', '/receipts');
    await api('GET', '/receipts');
    expect((await call('GET', '/rest/v1/receipts', { token: 'sbx_wrong' })).status).toBe(401);
    const log = (await control('GET', '/requests')).body as { data: unknown[] };
    expect(log.data.filter((entry) => (entry as { path: string }).path === '/rest/v1/receipts')).toHaveLength(2);
  });
});
