import { describe, expect, it } from 'vitest';
import { isCalendarDate, parseDateTime } from '../../src/support/time';

describe('isCalendarDate(value)', () => {
  it.each(['2024-02-29', '2000-02-29', '2025-12-31', '0001-01-01'])('returns true for %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
  });
  it.each(['2025-02-29', '1900-02-29', '2025-04-31', '2025-00-10', '2025-01-00', '2025-1-01', ' 2025-01-01'])(
    'returns false for %s',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});

describe('parseDateTime(value)', () => {
  it('reads Z, offsets and fractions into epoch milliseconds', () => {
    expect(parseDateTime('2025-03-01T00:00:00Z')).toBe(Date.UTC(2025, 2, 1));
    expect(parseDateTime('2025-03-01T00:00:00+01:00')).toBe(Date.UTC(2025, 1, 28, 23));
    expect(parseDateTime('2025-03-01t00:00:00.5-02:30')).toBe(Date.UTC(2025, 2, 1, 2, 30, 0, 500));
  });
  it.each([
    '2025-03-01',
    '2025-03-01T00:00:00',
    '2025-03-01 00:00:00Z',
    '2025-02-30T00:00:00Z',
    '2025-03-01T24:00:00Z',
    '2025-03-01T00:00:00+24:00',
  ])('returns undefined for %s', (value) => {
    expect(parseDateTime(value)).toBeUndefined();
  });
});
