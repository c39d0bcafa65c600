import { describe, expect, it } from 'vitest';
import { type CliIo, main } from '../../src/cli/fflkit-mcp';

function io(env: Record<string, string> = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), out, err };
}

describe('fflkit-mcp', () => {
  it('needs a base URL, saying so on standard error and nothing on standard output', async () => {
    const streams = io();
    expect(await main([], streams)).toBe(2);
    expect(streams.err.join('')).toMatch(/^fflkit-mcp: --base-url is required \(or FFLKIT_BASE_URL\)/);
    expect(streams.out).toEqual([]);
  });

  it('refuses a base URL that cannot be the service, without echoing a token', async () => {
    const streams = io({ FFLKIT_TOKEN: 'sbx_secret0000000000000000000001' });
    expect(await main(['--base-url', 'localhost:4010'], streams)).toBe(2);
    expect(streams.err.join('')).toMatch(
      /^fflkit-mcp: the base URL must be the service's http\(s\) address ending in \/rest\/v1/,
    );
    expect(streams.err.join('')).not.toContain('sbx_secret');
  });

  it('refuses an unknown option', async () => {
    const streams = io();
    expect(await main(['--base-url', 'http://127.0.0.1:4010', '--alow-writes'], streams)).toBe(2);
    expect(streams.err.join('')).toMatch(/^fflkit-mcp: Unknown option '--alow-writes'/);
  });

  it('prints its usage and version on standard output when asked', async () => {
    const usage = io();
    expect(await main(['--help'], usage)).toBe(0);
    expect(usage.out.join('')).toMatch(/^Usage: fflkit-mcp --base-url <url> \[--token <token>\] \[--allow-writes\]/);
    const version = io();
    expect(await main(['--version'], version)).toBe(0);
    expect(version.out.join('')).toMatch(/^\d+\.\d+\.\d+/);
  });
});
