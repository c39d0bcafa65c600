import { describe, expect, it } from 'vitest';
import { formatOrigin } from '../../src/server/format-origin';

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
