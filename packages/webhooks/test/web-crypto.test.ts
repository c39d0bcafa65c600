import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { constantTimeEqual, hmacHex, hmacKey, matchWebSecret, sha256Hex } from '../src/web-crypto';

const BODY = '{"event":"ping"}';
const digestOf = (secret: string) => createHmac('sha256', secret).update(BODY).digest('hex');

describe('matchWebSecret(secrets, payload, digestHex)', () => {
  it('returns the index of the secret that matches', async () => {
    await expect(matchWebSecret(['whsec_a', 'whsec_b', 'whsec_c'], BODY, digestOf('whsec_c'))).resolves.toBe(2);
    await expect(
      matchWebSecret(['whsec_a', 'whsec_b'], new TextEncoder().encode(BODY), digestOf('whsec_a')),
    ).resolves.toBe(0);
  });

  it('returns -1 when no secret matches', async () => {
    await expect(matchWebSecret(['whsec_a', 'whsec_b'], BODY, digestOf('whsec_z'))).resolves.toBe(-1);
  });
});

describe('hmacHex(secret, payload)', () => {
  it('returns the lowercase hex HMAC-SHA256 of text and of bytes, as node:crypto computes it', async () => {
    await expect(hmacHex('whsec_a', BODY)).resolves.toBe(digestOf('whsec_a'));
    await expect(hmacHex('whsec_a', new TextEncoder().encode(BODY))).resolves.toBe(digestOf('whsec_a'));
  });
});

describe('sha256Hex(payload)', () => {
  it('returns the lowercase hex SHA-256 of text (as UTF-8) and of bytes, as node:crypto computes it', async () => {
    const text = '{"message":"Prüfung ✓ 🔫"}';
    const expected = createHash('sha256').update(text).digest('hex');
    await expect(sha256Hex(text)).resolves.toBe(expected);
    await expect(sha256Hex(new TextEncoder().encode(text))).resolves.toBe(expected);
    await expect(sha256Hex('')).resolves.toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('hmacKey(secret)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('imports an HMAC-SHA256 signing key that cannot be exported', async () => {
    const key = await hmacKey('whsec_key_shape');
    expect(key.algorithm).toEqual({ name: 'HMAC', hash: { name: 'SHA-256' }, length: 120 });
    expect(key.extractable).toBe(false);
    expect(key.usages).toEqual(['sign']);
  });

  it('returns the kept key for a secret seen before, without importing it again', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const first = hmacKey('whsec_kept');
    expect(hmacKey('whsec_kept')).toBe(first);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it('keeps eight keys and imports again the oldest once a ninth is asked for', async () => {
    const secrets = Array.from({ length: 9 }, (_, index) => `whsec_rotation_${index}`);
    const firsts = secrets.map((secret) => hmacKey(secret));
    expect(hmacKey(secrets[8] as string)).toBe(firsts[8]);
    expect(hmacKey(secrets[1] as string)).toBe(firsts[1]);
    expect(hmacKey(secrets[0] as string)).not.toBe(firsts[0]);
    await Promise.all(firsts);
  });

  it('does not keep a failed import, so the next call tries again', async () => {
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValueOnce(new Error('no crypto'));
    await expect(hmacKey('whsec_failing')).rejects.toThrow('no crypto');
    await expect(hmacKey('whsec_failing')).resolves.toHaveProperty('type', 'secret');
  });
});

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
