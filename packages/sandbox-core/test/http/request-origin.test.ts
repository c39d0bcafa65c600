import { describe, expect, it } from 'vitest';
import { readJsonObject } from '../../src/http/read-json-object';
import { requestOrigin } from '../../src/http/request-origin';

describe('requestOrigin(headers)', () => {
  it('takes the host and a forwarded scheme', () => {
    expect(requestOrigin({ host: 'logbook.example.com', 'x-forwarded-proto': 'https, http' })).toBe('https://logbook.example.com');
    expect(requestOrigin({ host: '[::1]:4010', 'x-forwarded-proto': 'gopher' })).toBe('http://[::1]:4010');
  });

  it('falls back to localhost for a missing or malformed host', () => {
    for (const host of [undefined, '', 'bad host', 'a/b', 'evil.com/x?y', 'h:port']) {
      expect(requestOrigin({ host })).toBe('http://localhost');
    }
  });
});

describe('readJsonObject(text)', () => {
  it('reads an object after a byte order mark, and an absent or blank body as empty', () => {
    expect(readJsonObject('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(readJsonObject(undefined)).toEqual({});
    expect(readJsonObject(' \n')).toEqual({});
  });
});
