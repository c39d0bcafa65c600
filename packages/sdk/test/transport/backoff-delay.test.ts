import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/transport/backoff-delay';

describe('backoffDelay(retry, random)', () => {
  it('doubles from 0.5 s and stops at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelay(retry, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('takes off at most a quarter as jitter', () => {
    expect(backoffDelay(0, () => 0.5)).toBe(437.5);
    expect(backoffDelay(4, () => 0.999_999)).toBeGreaterThan(6000);
    expect(backoffDelay(4, () => 0.999_999)).toBeLessThan(8000);
  });
});
