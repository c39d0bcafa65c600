import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeSha256Hex } from '../../src/server/node-sha256-hex';

describe('nodeSha256Hex(text)', () => {
  it('returns the lowercase hex SHA-256 of the UTF-8 bytes of the text', () => {
    expect(nodeSha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const text = 'sbx_Ünïcode-🔑';
    expect(nodeSha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });
});
