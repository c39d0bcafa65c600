import { startSandbox } from '@fflkit/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../support/sandbox-client';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

it('200 concurrent requests on one token get exactly 60 answers that are not 429', async () => {
  const { token } = await sandbox.createAccount();
  const { token: other } = await sandbox.createAccount();
  const responses = await Promise.all(
    Array.from({ length: 200 }, () => call(sandbox.apiUrl, 'GET', '/books', { token })),
  );

  const accepted = responses.filter((r) => r.status !== 429);
  const limited = responses.filter((r) => r.status === 429);
  expect(accepted).toHaveLength(60);
  expect(accepted.every((r) => r.status === 200)).toBe(true);
  expect(limited).toHaveLength(140);

  const remaining = accepted
    .map((r) => Number((r.headers as Headers).get('x-ratelimit-remaining')))
    .sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
  for (const r of responses) expect((r.headers as Headers).get('x-ratelimit-limit')).toBe('60');

  const nowSeconds = Math.floor(Date.now() / 1000);
  for (const r of limited) {
    const headers = r.headers as Headers;
    const retryAfter = Number(headers.get('retry-after'));
    const reset = Number(headers.get('x-ratelimit-reset'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(reset).toBeGreaterThan(nowSeconds - 2);
    expect(reset).toBeLessThanOrEqual(nowSeconds + 61);
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(r.body).toEqual({ message: expect.any(String) });
  }

  const unaffected = await call(sandbox.apiUrl, 'GET', '/books', { token: other });
  expect(unaffected.status).toBe(200);
  expect((unaffected.headers as Headers).get('x-ratelimit-remaining')).toBe('59');
});

it("the window counts real time: advancing the account's clock neither reopens it nor moves its reset", async () => {
  const { token } = await sandbox.createAccount();
  for (let i = 0; i < 60; i += 1) await call(sandbox.apiUrl, 'GET', '/books', { token });
  const refused = await call(sandbox.apiUrl, 'GET', '/books', { token });
  expect(refused.status).toBe(429);
  const reset = Number((refused.headers as Headers).get('x-ratelimit-reset'));
  await call(sandbox.url, 'POST', '/_sandbox/clock/advance', { token, body: { seconds: 365 * 86_400 } });
  const still = await call(sandbox.apiUrl, 'GET', '/books', { token });
  expect(still.status).toBe(429);
  const headers = still.headers as Headers;
  expect(Number(headers.get('x-ratelimit-reset'))).toBe(reset);
  // Both headers name the same moment: the second of the answer plus Retry-After.
  const answered = Math.floor(Date.parse(headers.get('date')!) / 1000);
  expect(Number(headers.get('retry-after'))).toBeGreaterThanOrEqual(reset - answered - 1);
  expect(Number(headers.get('retry-after'))).toBeLessThanOrEqual(reset - answered);
});
