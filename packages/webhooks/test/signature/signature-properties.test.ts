import {
  sign as octokitSign,
  verify as octokitVerify,
  verifyWithFallback as octokitVerifyWithFallback,
} from '@octokit/webhooks-methods';
import { signDelivery } from '@fflkit/sandbox-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as nodeBuild from '../../src/index';
import * as webBuild from '../../src/web';
import { BUILDS } from '../support/builds';

const secrets = fc.string({ minLength: 1, maxLength: 80, unit: 'grapheme' });
const textBodies = fc.string({ maxLength: 2000, unit: 'grapheme' });
const byteBodies = fc.uint8Array({ maxLength: 2000 });
const hexDigit = fc.constantFrom(...'0123456789abcdef');

/** A signature header that is wrong in some way: random digest, random text, or near misses. */
const wrongSignatures = fc.oneof(
  fc.string({ minLength: 64, maxLength: 64, unit: hexDigit }).map((hex) => `sha256=${hex}`),
  fc.string({ minLength: 1, maxLength: 100 }),
  fc.string({ minLength: 1, maxLength: 80, unit: hexDigit }).map((hex) => `sha256=${hex}`),
);

describe.each(BUILDS)('signing properties on the $name', ({ api: { signPayload, verifySignature } }) => {
  it('verifySignature(secret, payload, await signPayload(secret, payload)) returns true for any secret and body', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, fc.oneof(textBodies, byteBodies), async (secret, body) => {
        expect(await verifySignature(secret, body, await signPayload(secret, body))).toBe(true);
      }),
    );
  });

  it('verifySignature(secret, payload, signature) returns false for any change to one byte of the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        secrets,
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (secret, body, at, flip) => {
          const signature = await signPayload(secret, body);
          const changed = body.slice();
          const index = at % changed.length;
          changed[index] = (changed[index] as number) ^ flip;
          expect(await verifySignature(secret, changed, signature)).toBe(false);
        },
      ),
    );
  });

  it('verifySignature(secret, payload, signature) returns false for any byte added to or removed from the body', async () => {
    await fc.assert(
      fc.asyncProperty(
        secrets,
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        fc.integer({ min: 0, max: 255 }),
        async (secret, body, extra) => {
          const signature = await signPayload(secret, body);
          const longer = new Uint8Array([...body, extra]);
          expect(await verifySignature(secret, longer, signature)).toBe(false);
          expect(await verifySignature(secret, body.subarray(0, -1), signature)).toBe(false);
        },
      ),
    );
  });

  it('verifySignature(secret, payload, signature) returns false for any other secret', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, secrets, textBodies, async (secret, other, body) => {
        fc.pre(secret !== other);
        expect(await verifySignature(other, body, await signPayload(secret, body))).toBe(false);
      }),
    );
  });

  it('verifySignature(secret, payload, signature) returns false for any change to one digit of the signature', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, textBodies, fc.nat(), hexDigit, async (secret, body, at, digit) => {
        const signature = await signPayload(secret, body);
        const index = 'sha256='.length + (at % 64);
        fc.pre(signature[index] !== digit);
        const changed = `${signature.slice(0, index)}${digit}${signature.slice(index + 1)}`;
        expect(await verifySignature(secret, body, changed)).toBe(false);
      }),
    );
  });

  it('verifySignature(secret, payload, signature) returns false, never throws, for any wrong header', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, textBodies, wrongSignatures, async (secret, body, signature) => {
        fc.pre(signature !== (await signPayload(secret, body)));
        expect(await verifySignature(secret, body, signature)).toBe(false);
      }),
    );
  });
});

describe('the node and web builds', () => {
  it('signPayload(secret, payload) resolves to the same signature on both for any secret and body', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, fc.oneof(textBodies, byteBodies), async (secret, body) => {
        expect(await webBuild.signPayload(secret, body)).toBe(await nodeBuild.signPayload(secret, body));
      }),
    );
  });

  it('verifySignature(secret, payload, signature) gives the same answer on both for any header', async () => {
    await fc.assert(
      fc.asyncProperty(
        secrets,
        textBodies,
        fc.oneof(wrongSignatures, fc.constant(undefined)),
        async (secret, body, signature) => {
          expect(await webBuild.verifySignature(secret, body, signature)).toBe(
            await nodeBuild.verifySignature(secret, body, signature),
          );
        },
      ),
    );
  });

  it('signPayload(secret, payload) agrees with the sandbox signer signDelivery for any secret and text body', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, textBodies, async (secret, body) => {
        expect(await nodeBuild.signPayload(secret, body)).toBe(signDelivery(secret, body));
      }),
    );
  });
});

// @octokit/webhooks-methods implements the same `sha256=` scheme independently (GitHub's), for
// non-empty string bodies.
describe.each(BUILDS)(
  'agreement with @octokit/webhooks-methods on the $name',
  ({ api: { signPayload, verifySignature } }) => {
    const bodies = fc.string({ minLength: 1, maxLength: 2000, unit: 'grapheme' });

    it('signPayload(secret, payload) resolves to what octokit sign(secret, payload) does', async () => {
      await fc.assert(
        fc.asyncProperty(secrets, bodies, async (secret, body) => {
          expect(await signPayload(secret, body)).toBe(await octokitSign(secret, body));
        }),
      );
    });

    it('verifySignature(secret, payload, signature) answers as octokit verify does, for right and wrong headers', async () => {
      await fc.assert(
        fc.asyncProperty(secrets, bodies, fc.oneof(wrongSignatures, fc.constant(null)), async (secret, body, wrong) => {
          const signature = wrong ?? (await octokitSign(secret, body));
          expect(await verifySignature(secret, body, signature)).toBe(await octokitVerify(secret, body, signature));
        }),
      );
    });

    it('verifySignature([secret, ...fallbacks], payload, signature) answers as octokit verifyWithFallback does', async () => {
      await fc.assert(
        fc.asyncProperty(
          secrets,
          fc.array(secrets, { maxLength: 3 }),
          bodies,
          fc.nat(3),
          async (secret, fallbacks, body, signer) => {
            const all = [secret, ...fallbacks];
            const signature = await octokitSign(all[signer % (all.length + 1)] ?? 'whsec_none_of_them', body);
            expect(await verifySignature(all, body, signature)).toBe(
              await octokitVerifyWithFallback(secret, body, signature, fallbacks),
            );
          },
        ),
      );
    });
  },
);
