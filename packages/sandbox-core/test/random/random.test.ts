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
});
