import { describe, expect, it } from 'vitest';
import { concatBytes, declaredLength } from '../src/body';

describe('concatBytes(chunks, size)', () => {
  it('joins the chunks in order', () => {
    expect(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3]), new Uint8Array([])], 3)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('returns a single chunk as it is, and no chunks as an empty array', () => {
    const chunk = new Uint8Array([4, 5]);
    expect(concatBytes([chunk], 2)).toBe(chunk);
    expect(concatBytes([], 0)).toEqual(new Uint8Array(0));
  });
});

describe('declaredLength(contentLength)', () => {
  it('returns the length a Content-Length header declares', () => {
    expect(declaredLength('0')).toBe(0);
    expect(declaredLength('1048577')).toBe(1_048_577);
  });

  it('returns undefined for a missing, empty, negative, fractional or non-numeric header', () => {
    for (const value of [null, undefined, '', '-1', '1.5', 'lots', '1e400']) expect(declaredLength(value)).toBeUndefined();
  });
});
