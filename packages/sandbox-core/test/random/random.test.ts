import { describe, expect, it } from 'vitest';
import { randomBase62 } from '../../src/random/random-base62';
import { randomUuid } from '../../src/random/random-uuid';

describe('randomBase62(randomBytes, length)', () => {
  it('drops bytes that would bias the alphabet and asks for more', () => {
    const calls: number[] = [];
    const bytes = (length: number) => {
      calls.push(length);
      return Uint8Array.from({ length }, (_, index) => (calls.length === 1 ? 255 : index));
    };
    expect(randomBase62(bytes, 4)).toBe('0123');
    expect(calls).toEqual([12, 12]);
  });
});

describe('randomUuid(randomBytes)', () => {
  it('sets the version 4 and variant bits', () => {
    expect(randomUuid((length) => new Uint8Array(length).fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });

  it('writes the 16 bytes in order as lowercase hex', () => {
    expect(randomUuid((length) => Uint8Array.from({ length }, (_, index) => index))).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
  });
});

describe('pooledRandomBytes(source)', () => {
  it('draws 4 KiB blocks from the source and hands each byte out once, in order', async () => {
    const { pooledRandomBytes } = await import('../../src/random/pooled-random-bytes');
    const calls: number[] = [];
    let next = 0;
    const source = (length: number) => {
      calls.push(length);
      return Uint8Array.from({ length }, () => (next += 1) % 256);
    };
    const randomBytes = pooledRandomBytes(source);
    expect(Array.from(randomBytes(3))).toEqual([1, 2, 3]);
    expect(Array.from(randomBytes(2))).toEqual([4, 5]);
    for (let i = 0; i < 255; i += 1) randomBytes(16);
    expect(calls).toEqual([4096]);
    expect(randomBytes(16)).toHaveLength(16);
    expect(calls).toEqual([4096, 4096]);
    expect(randomBytes(5000)).toHaveLength(5000);
    expect(calls).toEqual([4096, 4096, 5000]);
  });
});
