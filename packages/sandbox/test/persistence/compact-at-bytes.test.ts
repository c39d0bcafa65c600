import { describe, expect, it } from 'vitest';
import { compactAtBytes, DEFAULT_COMPACT_AT_BYTES } from '../../src/persistence/compact-at-bytes';

describe('compactAtBytes(environment)', () => {
  it('answers 64 MiB when BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES is unset or empty', () => {
    expect(compactAtBytes({})).toBe(64 * 2 ** 20);
    expect(compactAtBytes({ BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES: '' })).toBe(DEFAULT_COMPACT_AT_BYTES);
  });

  it('answers the whole number of bytes it is set to', () => {
    expect(compactAtBytes({ BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES: '16384' })).toBe(16_384);
  });

  it.each(['0', '-5', '1.5', '1e6', 'lots', '99999999999999999999'])('throws a TypeError for %j', (text) => {
    expect(() => compactAtBytes({ BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES: text })).toThrow(
      /^\[@boundbook\/sandbox\] BOUNDBOOK_SANDBOX_COMPACT_AT_BYTES must be a whole number/,
    );
  });
});
