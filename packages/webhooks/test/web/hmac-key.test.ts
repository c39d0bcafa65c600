import { afterEach, describe, expect, it, vi } from 'vitest';
import { hmacKey } from '../../src/web/hmac-key';

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
