import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { matchNodeSecret } from '../../src/node/match-secret';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof crypto>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const BODY = '{"event":"ping"}';
const digestOf = (secret: string) => crypto.createHmac('sha256', secret).update(BODY).digest('hex');

describe('matchNodeSecret(secrets, payload, digestHex)', () => {
  it('returns the index of the secret that matches, comparing each with timingSafeEqual over 32 bytes', () => {
    vi.mocked(crypto.timingSafeEqual).mockClear();
    expect(matchNodeSecret(['whsec_a', 'whsec_b', 'whsec_c'], BODY, digestOf('whsec_b'))).toBe(1);
    expect(crypto.timingSafeEqual).toHaveBeenCalledTimes(2);
    for (const [actual, expected] of vi.mocked(crypto.timingSafeEqual).mock.calls) {
      expect([(actual as Buffer).length, (expected as Buffer).length]).toEqual([32, 32]);
    }
  });

  it('returns -1 when no secret matches', () => {
    expect(matchNodeSecret(['whsec_a', 'whsec_b'], BODY, digestOf('whsec_z'))).toBe(-1);
  });
});
