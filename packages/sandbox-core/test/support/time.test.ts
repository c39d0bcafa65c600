import { describe, expect, it } from 'vitest';
import { formatInstant, formatTimestamp, isCalendarDate, parseDateTime, utcDate } from '../../src/support/time';

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

describe('formatInstant, formatTimestamp and utcDate, called in turn with other moments', () => {
  it('answer each moment its own text, whatever was formatted before', () => {
    const first = Date.UTC(2025, 2, 14, 23, 59, 59, 500);
    const second = Date.UTC(2025, 2, 15, 0, 0, 0);
    const moments = [first, second, first, first, second, -1, -1];
    expect(moments.map(formatInstant)).toEqual([
      '2025-03-14T23:59:59.500Z',
      '2025-03-15T00:00:00Z',
      '2025-03-14T23:59:59.500Z',
      '2025-03-14T23:59:59.500Z',
      '2025-03-15T00:00:00Z',
      '1969-12-31T23:59:59.999Z',
      '1969-12-31T23:59:59.999Z',
    ]);
    expect(moments.map(formatTimestamp)[0]).toBe('2025-03-14T23:59:59Z');
    expect(moments.map(utcDate)).toEqual([
      '2025-03-14',
      '2025-03-15',
      '2025-03-14',
      '2025-03-14',
      '2025-03-15',
      '1969-12-31',
      '1969-12-31',
    ]);
  });

  it('still refuse a moment no date can hold', () => {
    expect(() => formatInstant(Number.NaN)).toThrow(RangeError);
    expect(() => utcDate(Number.NaN)).toThrow(RangeError);
  });
});
