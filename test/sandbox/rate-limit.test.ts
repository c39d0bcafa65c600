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

it('the window reopens when the account clock passes its end', async () => {
  const { token } = await sandbox.createAccount();
  for (let i = 0; i < 60; i += 1) await call(sandbox.apiUrl, 'GET', '/books', { token });
  expect((await call(sandbox.apiUrl, 'GET', '/books', { token })).status).toBe(429);
  await call(sandbox.url, 'POST', '/_sandbox/clock/advance', { token, body: { seconds: 60 } });
  const reopened = await call(sandbox.apiUrl, 'GET', '/books', { token });
  expect(reopened.status).toBe(200);
  expect((reopened.headers as Headers).get('x-ratelimit-remaining')).toBe('59');
});
