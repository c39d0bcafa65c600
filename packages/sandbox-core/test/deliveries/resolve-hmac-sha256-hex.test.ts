import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/create-sandbox-core';
import { hmacSha256Hex } from '../../src/outbox/hmac-sha256-hex';
import { withEndpoint } from './support';

const nodeHmac = (key: string, message: string): string => createHmac('sha256', key).update(message, 'utf8').digest('hex');

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
      /^\[@boundbook\/sandbox-core\] hmacSha256Hex must return/,
    );
    expect(() => createSandboxCore({ hmacSha256Hex: () => '' })).toThrow(TypeError);
  });
});
