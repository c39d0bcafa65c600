import { describe, expect, it } from 'vitest';
import {
  randomBase62,
  randomUuid,
  signDelivery,
  pooledRandomBytes,
  sha256Hex,
  hmacSha256Hex,
} from '../../src/support/crypto';
import { createHmac } from 'node:crypto';
import { createSandboxCore } from '../../src/core';
import { withEndpoint } from '../harness/endpoint';

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

  it('writes the 16 bytes in order as lowercase hex', () => {
    expect(randomUuid((length) => Uint8Array.from({ length }, (_, index) => index))).toBe(
      '00010203-0405-4607-8809-0a0b0c0d0e0f',
    );
  });
});

describe('pooledRandomBytes(source)', () => {
  it('draws 4 KiB blocks from the source and hands each byte out once, in order', () => {
    const calls: number[] = [];
    let next = 0;
    const source = (length: number) => {
      calls.push(length);
      return Uint8Array.from({ length }, () => (next += 1) % 256);
    };
    const randomBytes = pooledRandomBytes(source);
    expect(Array.from(randomBytes(3))).toEqual([1, 2, 3]);
    expect(Array.from(randomBytes(2))).toEqual([4, 5]);
    for (let i = 0; i < 255; i += 1) randomBytes(16);
    expect(calls).toEqual([4096]);
    expect(randomBytes(16)).toHaveLength(16);
    expect(calls).toEqual([4096, 4096]);
    expect(randomBytes(5000)).toHaveLength(5000);
    expect(calls).toEqual([4096, 4096, 5000]);
  });
});

describe('signDelivery(secret, body)', () => {
  it('returns sha256= and the hex HMAC of the body keyed with the whole secret', () => {
    const secret = 'whsec_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a';
    const body =
      '{"event":"ping","timestamp":"2025-03-01T10:05:00Z","data":{"webhook_id":7,"message":"Webhook test ping. ✓"}}';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signDelivery(secret, body)).toBe(`sha256=${expected}`);
  });
});

describe('sha256Hex(token)', () => {
  it('returns the sha256 hex digest of the UTF-8 token', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

const nodeHmac = (key: string, message: string): string =>
  createHmac('sha256', key).update(message, 'utf8').digest('hex');

describe('createSandboxCore({ hmacSha256Hex })', () => {
  it('signs deliveries with the given HMAC, the same signature as the plain JavaScript one', async () => {
    const keys: string[] = [];
    const world = await withEndpoint(['*'], {
      hmacSha256Hex: (key, message) => {
        keys.push(key);
        return nodeHmac(key, message);
      },
    });
    await world.receipt();
    await Promise.all(world.core.deliveries.startDue(10));
    const [request] = world.transport.requests;
    expect(keys.at(-1)).toBe(world.secret);
    expect(request?.headers['X-SVC-Signature']).toBe(`sha256=${hmacSha256Hex(world.secret, request?.body ?? '')}`);
  });

  it('throws a TypeError naming the package for a function that is not HMAC-SHA256 in lowercase hex', () => {
    expect(() => createSandboxCore({ hmacSha256Hex: (key, message) => nodeHmac(key, message).toUpperCase() })).toThrow(
      /^\[@fflkit\/sandbox-core\] hmacSha256Hex must return/,
    );
    expect(() => createSandboxCore({ hmacSha256Hex: () => '' })).toThrow(TypeError);
  });
});
