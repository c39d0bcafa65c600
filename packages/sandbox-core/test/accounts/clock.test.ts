import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, receiptBody, withAccount } from '../harness/harness';

describe('the account clock', () => {
  it('reads now and the offset, and advances by whole seconds up to a year', async () => {
    const { control, clock } = await withAccount();
    clock.ms += 250;
    expect(dataOf(await control('GET', '/clock'))).toEqual({ now: '2025-03-14T15:04:05Z', offset_seconds: 0 });
    expect(dataOf(await control('POST', '/clock/advance', { body: { seconds: 60 } }))).toEqual({
      now: '2025-03-14T15:05:05Z',
      offset_seconds: 60,
    });
    expect(dataOf(await control('POST', '/clock/advance', { body: { seconds: 31_536_000 } }))).toMatchObject({
      offset_seconds: 31_536_060,
    });
    for (const seconds of [0, -5, 1.5, '60', 31_536_001]) {
      expect(Object.keys(errorsOf(await control('POST', '/clock/advance', { body: { seconds } })))).toEqual([
        'seconds',
      ]);
    }
  });

  it('stamps records with the account clock and leaves other accounts alone', async () => {
    const { control, api, call } = await withAccount();
    await control('POST', '/clock/advance', { body: { seconds: 3600 } });
    expect(dataOf(await api('POST', '/receipts', { body: receiptBody() }))).toMatchObject({
      created_at: '2025-03-14T16:04:05Z',
    });
    const other = (await call('POST', '/_sandbox/accounts')).body as { token: string };
    expect(dataOf(await call('GET', '/_sandbox/clock', { token: other.token }))).toEqual({
      now: '2025-03-14T15:04:05Z',
      offset_seconds: 0,
    });
  });
});

describe('the clock limit', () => {
  it('refuses an advance past the year 9999', async () => {
    const { control, clock } = await withAccount();
    clock.ms = Date.UTC(9999, 11, 31, 23, 0, 0);
    expect(errorsOf(await control('POST', '/clock/advance', { body: { seconds: 3600 } }))).toEqual({
      seconds: ['The seconds field would move the clock past 9999-12-31T23:59:59Z.'],
    });
    expect((await control('POST', '/clock/advance', { body: { seconds: 3599 } })).status).toBe(200);
  });
});
