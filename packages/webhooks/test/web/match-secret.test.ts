import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchWebSecret } from '../../src/web/match-secret';

const BODY = '{"event":"ping"}';
const digestOf = (secret: string) => createHmac('sha256', secret).update(BODY).digest('hex');

describe('matchWebSecret(secrets, payload, digestHex)', () => {
  it('returns the index of the secret that matches', async () => {
    await expect(matchWebSecret(['whsec_a', 'whsec_b', 'whsec_c'], BODY, digestOf('whsec_c'))).resolves.toBe(2);
    await expect(matchWebSecret(['whsec_a', 'whsec_b'], new TextEncoder().encode(BODY), digestOf('whsec_a'))).resolves.toBe(0);
  });

  it('returns -1 when no secret matches', async () => {
    await expect(matchWebSecret(['whsec_a', 'whsec_b'], BODY, digestOf('whsec_z'))).resolves.toBe(-1);
  });
});
