import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config-error';
import { readReceiverConfig } from '../src/read-receiver-config';

const SECRET = 'whsec_5f2b8c1d9e7a4b3c6d0e1f2a3b4c5d6e';

describe('readReceiverConfig(env)', () => {
  it('defaults to the Express receiver on 127.0.0.1:3000', () => {
    expect(readReceiverConfig({ FFLKIT_WEBHOOK_SECRET: SECRET })).toEqual({
      secret: SECRET,
      framework: 'express',
      host: '127.0.0.1',
      port: 3000,
    });
  });

  it('reads RECEIVER, HOST and PORT', () => {
    expect(
      readReceiverConfig({ FFLKIT_WEBHOOK_SECRET: SECRET, RECEIVER: 'node', HOST: '0.0.0.0', PORT: '8080' }),
    ).toEqual({
      secret: SECRET,
      framework: 'node',
      host: '0.0.0.0',
      port: 8080,
    });
  });

  it.each([
    ['no secret', {}, /FFLKIT_WEBHOOK_SECRET must hold/],
    ['a secret without its whsec_ prefix', { FFLKIT_WEBHOOK_SECRET: SECRET.slice('whsec_'.length) }, /prefix included/],
    ['an unknown RECEIVER', { FFLKIT_WEBHOOK_SECRET: SECRET, RECEIVER: 'fastify' }, /RECEIVER is "fastify"/],
    ['a PORT that is not a port', { FFLKIT_WEBHOOK_SECRET: SECRET, PORT: '70000' }, /PORT is "70000"/],
  ])('throws a ConfigError for %s', (_case, env, message) => {
    expect(() => readReceiverConfig(env)).toThrow(message);
    expect(() => readReceiverConfig(env)).toThrow(ConfigError);
  });
});
