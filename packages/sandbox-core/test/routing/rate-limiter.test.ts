import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, rateLimitProblem } from '../../src/routing/rate-limiter';
import { START, withAccount } from '../harness/harness';

describe('the rate limit of the service API', () => {
  it('answers exactly 60 requests per window, then 429 with Retry-After and X-RateLimit-Reset', async () => {
    const { api, clock } = await withAccount();
    // The window opens on the second of its first request, as a service that counts whole seconds.
    clock.ms += 500;
    const windowStart = START;
    for (let count = 1; count <= 60; count += 1) {
      const response = await api('GET', '/books');
      expect(response.status).toBe(200);
      expect(response.headers).toEqual({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': String(60 - count) });
    }
    clock.ms = windowStart + 20_250;
    const refused = await api('GET', '/books');
    expect(refused).toEqual({
      status: 429,
      headers: {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '0',
        'Retry-After': '40',
        'X-RateLimit-Reset': String((windowStart + 60_000) / 1000),
      },
      body: { message: 'Too Many Attempts.' },
    });
    clock.ms = windowStart + 59_999;
    expect((await api('GET', '/books')).headers['Retry-After']).toBe('1');
    clock.ms = windowStart + 60_000;
    expect((await api('GET', '/books')).status).toBe(200);
  });

  it('makes X-RateLimit-Reset the second of the answer plus Retry-After, whenever in a second it answers', async () => {
    // The first request is 737 ms into a second, so its window ends 59,263 ms later.
    for (const offsetMs of [0, 1, 262, 263, 999, 30_001, 59_262]) {
      const { api, clock } = await withAccount({}, { rateLimit: 1 });
      clock.ms += 737;
      await api('GET', '/books');
      clock.ms += offsetMs;
      const { status, headers } = await api('GET', '/books');
      expect(status).toBe(429);
      const nowSecond = Math.floor(clock.ms / 1000);
      expect(Number(headers['X-RateLimit-Reset'])).toBe(nowSecond + Number(headers['Retry-After']));
      // Both name the first moment the next request is accepted: not before, not after.
      clock.ms = Number(headers['X-RateLimit-Reset']) * 1000 - 1;
      expect((await api('GET', '/books')).status).toBe(429);
      clock.ms += 1;
      expect((await api('GET', '/books')).status).toBe(200);
    }
  });

  it('answers exactly 60 of 100 concurrent requests', async () => {
    const { api } = await withAccount();
    const responses = await Promise.all(Array.from({ length: 100 }, () => api('GET', '/books')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
  });

  it('counts every answer but 429 (401 is never counted), and a 429 is not counted', async () => {
    const { api, clock } = await withAccount({}, { rateLimit: 3 });
    await api('GET', '/receipts/999');
    await api('POST', '/receipts', { body: {} });
    await api('GET', '/books', { token: 'sbx_unknown' });
    expect((await api('GET', '/books')).headers['X-RateLimit-Remaining']).toBe('0');
    expect((await api('GET', '/books')).status).toBe(429);
    expect((await api('GET', '/books')).status).toBe(429);
    clock.ms += 60_000;
    expect((await api('GET', '/books')).headers['X-RateLimit-Remaining']).toBe('2');
  });

  it('counts per token: another token of the account is unaffected', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 1 });
    const other = ((await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string })
      .token;
    await api('GET', '/books');
    expect((await api('GET', '/books')).status).toBe(429);
    expect((await api('GET', '/books', { token: other })).status).toBe(200);
  });

  it("counts real time: advancing the account's clock neither resets the count nor moves the reset", async () => {
    const { api, control, clock } = await withAccount();
    for (let count = 0; count < 60; count += 1) await api('GET', '/books');
    const refused = await api('GET', '/books');
    expect(refused.status).toBe(429);
    for (const seconds of [60, 365 * 86_400]) {
      await control('POST', '/clock/advance', { body: { seconds } });
      const after = await api('GET', '/books');
      expect(after.status).toBe(429);
      expect(after.headers).toEqual(refused.headers);
    }
    clock.ms += 60_000;
    expect((await api('GET', '/books')).status).toBe(200);
  });

  it('leaves control calls uncounted and without rate-limit headers', async () => {
    const { api, control } = await withAccount({}, { rateLimit: 1 });
    for (let count = 0; count < 5; count += 1) {
      const response = await control('GET', '/clock');
      expect(response.headers).toEqual({});
    }
    expect((await api('GET', '/books')).status).toBe(200);
  });

  it('is lifted by rateLimit 0, which also drops the headers', async () => {
    const { api } = await withAccount({}, { rateLimit: 0 });
    for (let count = 0; count < 100; count += 1) {
      const response = await api('GET', '/books');
      expect(response.status).toBe(200);
      expect(response.headers).toEqual({});
    }
  });
});

describe('FixedWindowLimiter', () => {
  it('keeps no window of a token past its minute: tokens made and forgotten do not add up', () => {
    const limiter = new FixedWindowLimiter(60);
    let nowMs = START;
    for (let token = 1; token <= 50_000; token += 1) {
      limiter.hit(token, nowMs);
      nowMs += 10;
    }
    // 6,000 tokens were seen within the last minute; the rest ended, and at most as many again are kept.
    expect(limiter.size).toBeLessThanOrEqual(2 * 6_000 + 1);
    expect(limiter.hit(50_000, nowMs).headers['X-RateLimit-Remaining']).toBe('58');
  });

  it('hit(key, now) opens a new window when the clock is before the current one', () => {
    const limiter = new FixedWindowLimiter(1);
    expect(limiter.hit(1, START).allowed).toBe(true);
    expect(limiter.hit(1, START + 1).allowed).toBe(false);
    expect(limiter.hit(1, START - 1).allowed).toBe(true);
  });
});

describe('rateLimitProblem()', () => {
  it('accepts no value and whole numbers from 0, and words what is wrong with anything else', () => {
    for (const fine of [undefined, 0, 1, 60, Number.MAX_SAFE_INTEGER]) expect(rateLimitProblem(fine)).toBeUndefined();
    expect(rateLimitProblem(-1)).toBe(
      'rateLimit must be a whole number of requests per minute per token, or 0 to lift the limit; got -1',
    );
    for (const wrong of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '60', null]) {
      expect(rateLimitProblem(wrong)).toMatch(/^rateLimit must be a whole number .*; got /);
    }
  });
});
