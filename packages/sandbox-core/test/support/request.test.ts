import { describe, expect, it } from 'vitest';
import { requestOrigin, pageUrl, QueryReader } from '../../src/support/request';
import { ApiError } from '../../src/support/errors';

describe('requestOrigin(headers)', () => {
  it('takes the host and a forwarded scheme', () => {
    expect(requestOrigin({ host: 'logbook.example.com', 'x-forwarded-proto': 'https, http' })).toBe(
      'https://logbook.example.com',
    );
    expect(requestOrigin({ host: '[::1]:4010', 'x-forwarded-proto': 'gopher' })).toBe('http://[::1]:4010');
  });

  it('falls back to localhost for a missing or malformed host', () => {
    for (const host of [undefined, '', 'bad host', 'a/b', 'evil.com/x?y', 'h:port']) {
      expect(requestOrigin({ host })).toBe('http://localhost');
    }
  });
});

describe('pageUrl(path, query, page)', () => {
  const path = 'http://localhost/rest/v1/receipts';

  it('sets page in place and keeps the rest of the query as written', () => {
    expect(pageUrl(path, 'page=2&since=2025-03-01T00%3A00%3A00%2B01%3A00', 3)).toBe(
      `${path}?page=3&since=2025-03-01T00%3A00%3A00%2B01%3A00`,
    );
    expect(pageUrl(path, 'pa%67e=2&q=a+b', 1)).toBe(`${path}?page=1&q=a+b`);
  });

  it('appends page when the query has none', () => {
    expect(pageUrl(path, '', 1)).toBe(`${path}?page=1`);
    expect(pageUrl(path, 'status=on_hand&%E0=1', 2)).toBe(`${path}?status=on_hand&%E0=1&page=2`);
  });
});

describe('QueryReader', () => {
  it('decodes names and values, + as a space, and refuses repeated and malformed parameters', () => {
    const reader = new QueryReader('a=1&a=2&b&&c=x+y%21&%ZZ=1&d=%E0%A4%A');
    expect(reader.string('b')).toBe('');
    expect(reader.string('c')).toBe('x y!');
    expect(reader.string('a')).toBeUndefined();
    expect(reader.string('d')).toBeUndefined();
    expect(reader.string('%ZZ')).toBeUndefined();
    expect(refusal(reader)).toEqual({
      a: ['The a field must be given only once.'],
      d: ['The d field is not correctly percent-encoded.'],
      '%ZZ': ['The %ZZ field is not correctly percent-encoded.'],
    });
  });

  it('refuses a known parameter written as a list in brackets, as a repeated one, in any form', () => {
    const reader = new QueryReader('q[]=a&field[0]=model&page%5B%5D=2&book[a][b]=x&per_page=5&other[]=1&[]=2');
    expect(reader.string('q')).toBeUndefined();
    expect(reader.string('field')).toBeUndefined();
    expect(reader.string('page')).toBeUndefined();
    expect(reader.string('book')).toBeUndefined();
    expect(reader.string('per_page')).toBe('5');
    expect(refusal(reader)).toEqual({
      q: ['The q field must be given only once, as q=value, not as a list (q[]).'],
      field: ['The field field must be given only once, as field=value, not as a list (field[0]).'],
      page: ['The page field must be given only once, as page=value, not as a list (page[]).'],
      book: ['The book field must be given only once, as book=value, not as a list (book[a][b]).'],
    });
    // Beside the plain form too: the list is what is refused.
    const both = new QueryReader('q=a&q[]=b');
    expect(both.string('q')).toBeUndefined();
    expect(refusal(both)).toEqual({ q: ['The q field must be given only once, as q=value, not as a list (q[]).'] });
  });

  it('reads integers in decimal digits only, within range', () => {
    const reader = new QueryReader('a=12&b=1e3&c=-4&d=99999999999999999999');
    expect(reader.integer('a', 1, 200)).toBe(12);
    expect(reader.integer('b', 1, 200)).toBeUndefined();
    expect(reader.integer('c', 1, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(reader.integer('d', 1, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(reader.integer('missing', 1, 2)).toBeUndefined();
    expect(refusal(reader)).toEqual({
      b: ['The b field must be an integer.'],
      c: ['The c field must be at least 1.'],
      d: ['The d field must be an integer.'],
    });
  });

  it('assertValid(order) throws nothing when every parameter read was valid', () => {
    const reader = new QueryReader('page=2');
    expect(reader.page()).toEqual({ page: 2, perPage: 25 });
    expect(() => reader.assertValid(['page'])).not.toThrow();
  });
});

/** The 422 errors a reader throws. */
function refusal(reader: QueryReader): unknown {
  try {
    reader.assertValid([]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return error.body.errors;
    throw error;
  }
  throw new Error('expected a 422');
}
