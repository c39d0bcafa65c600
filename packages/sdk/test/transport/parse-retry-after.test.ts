import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/transport/parse-retry-after';

const NOW = Date.UTC(2025, 2, 14, 15, 4, 5);

describe('parseRetryAfter(value, now)', () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['1.5', 1.5],
    [' 7 ', 7],
  ])('reads delay-seconds %j as %d', (value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });

  it('reads an HTTP date as the seconds from now', () => {
    expect(parseRetryAfter('Fri, 14 Mar 2025 15:05:00 GMT', NOW)).toBe(55);
  });

  it('reads an HTTP date in the past as 0', () => {
    expect(parseRetryAfter('Fri, 14 Mar 2025 15:00:00 GMT', NOW)).toBe(0);
  });

  it.each([[null], [''], ['soon'], ['-5']])('returns undefined for %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});
