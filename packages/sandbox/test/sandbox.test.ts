import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatOrigin } from '../src/control-client';
import { nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';

describe('formatOrigin(host, port)', () => {
  it.each([
    ['127.0.0.1', 4010, 'http://127.0.0.1:4010'],
    ['localhost', 80, 'http://localhost:80'],
    ['0.0.0.0', 4010, 'http://127.0.0.1:4010'],
    ['::', 4010, 'http://[::1]:4010'],
    ['::1', 4011, 'http://[::1]:4011'],
  ])('formatOrigin(%j, %j) is %j', (host, port, origin) => {
    expect(formatOrigin(host, port)).toBe(origin);
  });
});

describe('nodeSha256Hex(text)', () => {
  it('returns the lowercase hex SHA-256 of the UTF-8 bytes of the text', () => {
    expect(nodeSha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const text = 'sbx_Ünïcode-🔑';
    expect(nodeSha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });
});
