import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/web/constant-time-equal';

/** A byte array that counts the reads of its elements. */
function counted(bytes: Uint8Array): { bytes: Uint8Array; reads: Set<number> } {
  const reads = new Set<number>();
  const proxy = new Proxy(bytes, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.add(Number(key));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { bytes: proxy, reads };
}

describe('constantTimeEqual(left, right)', () => {
  const digest = Uint8Array.from({ length: 32 }, (_, index) => index * 7);

  it('returns true for equal bytes', () => {
    expect(constantTimeEqual(digest, digest.slice())).toBe(true);
  });

  it('returns false when the first byte differs, and when the last does', () => {
    const first = digest.slice();
    first[0] = 255;
    const last = digest.slice();
    last[31] = 0;
    expect(constantTimeEqual(digest, first)).toBe(false);
    expect(constantTimeEqual(digest, last)).toBe(false);
  });

  it('returns false for arrays of different lengths', () => {
    expect(constantTimeEqual(digest, digest.subarray(0, 31))).toBe(false);
  });

  it('reads every byte of both arrays even when the first byte already differs (no early exit)', () => {
    const left = counted(digest.slice());
    const differing = digest.slice();
    differing[0] = 255;
    const right = counted(differing);
    expect(constantTimeEqual(left.bytes, right.bytes)).toBe(false);
    expect(left.reads.size).toBe(32);
    expect(right.reads.size).toBe(32);
  });
});
