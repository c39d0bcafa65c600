import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../src/cli/compile-cache-dir';

describe('compileCacheDir(env)', () => {
  it('returns BOUNDBOOK_SANDBOX_COMPILE_CACHE, or undefined when it is off', () => {
    expect(compileCacheDir({ BOUNDBOOK_SANDBOX_COMPILE_CACHE: '/var/cache/sandbox' })).toBe('/var/cache/sandbox');
    expect(compileCacheDir({ BOUNDBOOK_SANDBOX_COMPILE_CACHE: 'off' })).toBeUndefined();
  });

  it("returns a folder in the user's cache folder by default", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/home/you/.cache' })).toBe('/home/you/.cache/boundbook-sandbox');
    expect(compileCacheDir({})).toBe(join(homedir(), '.cache', 'boundbook-sandbox'));
    expect(compileCacheDir({ BOUNDBOOK_SANDBOX_COMPILE_CACHE: '', XDG_CACHE_HOME: '' })).toBe(
      join(homedir(), '.cache', 'boundbook-sandbox'),
    );
  });
});
