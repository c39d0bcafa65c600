import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/body/concat-bytes';

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
