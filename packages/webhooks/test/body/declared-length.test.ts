import { describe, expect, it } from 'vitest';
import { declaredLength } from '../../src/body/declared-length';

describe('declaredLength(contentLength)', () => {
  it('returns the length a Content-Length header declares', () => {
    expect(declaredLength('0')).toBe(0);
    expect(declaredLength('1048577')).toBe(1_048_577);
  });

  it('returns undefined for a missing, empty, negative, fractional or non-numeric header', () => {
    for (const value of [null, undefined, '', '-1', '1.5', 'lots', '1e400']) expect(declaredLength(value)).toBeUndefined();
  });
});
