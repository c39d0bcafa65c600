import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/tokens/hash-token';

describe('hashToken(token)', () => {
  it('returns the sha256 hex digest of the UTF-8 token', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
