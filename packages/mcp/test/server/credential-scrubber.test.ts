import { describe, expect, it } from 'vitest';
import { CredentialScrubber } from '../../src/server/credential-scrubber';

describe('CredentialScrubber', () => {
  it('replaces sandbox tokens and webhook secrets wherever they appear', () => {
    const scrubber = new CredentialScrubber();
    expect(
      scrubber.scrub('{"token":"sbx_ci0000000000000000000000000001","secret":"whsec_ab12","x":"Bearer sbx_Q9"}'),
    ).toBe('{"token":"[redacted]","secret":"[redacted]","x":"Bearer [redacted]"}');
  });

  it('keeps the credentials the call created, and only those', () => {
    const scrubber = new CredentialScrubber();
    expect(scrubber.scrub('{"token":"sbx_new1","other":"sbx_old2"}', ['sbx_new1'])).toBe(
      '{"token":"sbx_new1","other":"[redacted]"}',
    );
  });

  it("replaces the session's own tokens whatever their shape (a real service's)", () => {
    const scrubber = new CredentialScrubber();
    scrubber.remember('live-7f3a9c1e5b2d4f6a');
    expect(scrubber.scrub('the key live-7f3a9c1e5b2d4f6a was used')).toBe('the key [redacted] was used');
  });

  it('leaves text without credentials as it is', () => {
    expect(new CredentialScrubber().scrub('sbx is a word; whsec_ alone too')).toBe('sbx is a word; whsec_ alone too');
  });
});
