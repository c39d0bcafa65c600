import { describe, expect, it } from 'vitest';
import { sharedRateLimiter } from '../../src/rate-limit/shared-rate-limiter';
import { FakeClock } from '../support/fake-clock';

describe('sharedRateLimiter(token, perMinute, clock)', () => {
  it('returns the same limiter for the same token, limit and clock', () => {
    const clock = new FakeClock();
    expect(sharedRateLimiter('token-a', 60, clock)).toBe(sharedRateLimiter('token-a', 60, clock));
  });

  it('returns another limiter for another token, limit or clock', () => {
    const clock = new FakeClock();
    const limiter = sharedRateLimiter('token-b', 60, clock);
    expect(sharedRateLimiter('token-c', 60, clock)).not.toBe(limiter);
    expect(sharedRateLimiter('token-b', 120, clock)).not.toBe(limiter);
    expect(sharedRateLimiter('token-b', 60, new FakeClock())).not.toBe(limiter);
  });
});
