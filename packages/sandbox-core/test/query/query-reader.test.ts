import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/http/parse-query';
import { QueryReader } from '../../src/query/query-reader';
import { FieldErrors } from '../../src/validation/field-errors';

describe('parseQuery(query)', () => {
  it('decodes names and values, + as a space, and keeps repeats and malformed parts apart', () => {
    const parsed = parseQuery('a=1&a=2&b&&c=x+y%21&%ZZ=1&d=%E0%A4%A');
    expect([...parsed.values]).toEqual([['a', ['1', '2']], ['b', ['']], ['c', ['x y!']]]);
    expect(parsed.malformed).toEqual(['%ZZ', 'd']);
  });
});

describe('QueryReader', () => {
  it('reads integers in decimal digits only, within range', () => {
    const errors = new FieldErrors();
    const reader = new QueryReader('a=12&b=1e3&c=-4&d=99999999999999999999', errors);
    expect(reader.integer('a', 1, 200)).toBe(12);
    expect(reader.integer('b', 1, 200)).toBeUndefined();
    expect(reader.integer('c', 1, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(reader.integer('d', 1, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(reader.integer('missing', 1, 2)).toBeUndefined();
    expect(errors.toObject()).toEqual({
      b: ['The b field must be an integer.'],
      c: ['The c field must be at least 1.'],
      d: ['The d field must be an integer.'],
    });
  });
});
