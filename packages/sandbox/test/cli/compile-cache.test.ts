import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli, waitForApiUrl } from './spawn-cli';

let dir: string;
let cacheDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-sandbox-cache-test-'));
  cacheDir = join(dir, 'compile-cache');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const serveOnce = async (): Promise<void> => {
  const cli = spawnCli(['--port', '0', '--memory', '--quiet'], dir, { BOUNDBOOK_SANDBOX_COMPILE_CACHE: cacheDir });
  try {
    await waitForApiUrl(cli);
    await cli.waitFor(/Press Ctrl-C to stop/);
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exit;
  }
};

describe('boundbook-sandbox compile cache', () => {
  it('keeps the compiled program once a sandbox served, and the next start reuses it', async () => {
    await serveOnce();
    const [cacheFile] = await readdir(cacheDir);
    expect(cacheFile).toMatch(/^cli-program\.cjs-[0-9a-f]{32}\.bin$/);
    const written = await stat(join(cacheDir, cacheFile!));
    await serveOnce();
    expect(await readdir(cacheDir)).toEqual([cacheFile]);
    expect((await stat(join(cacheDir, cacheFile!))).mtimeMs).toBe(written.mtimeMs);
  });

  it('keeps nothing after --help, which compiles too little to be worth it, or when off', async () => {
    const help = spawnCli(['--help'], dir, { BOUNDBOOK_SANDBOX_COMPILE_CACHE: cacheDir });
    expect(await help.exit).toEqual({ code: 0, signal: null });
    const off = spawnCli(['--port', '0', '--memory'], dir, { BOUNDBOOK_SANDBOX_COMPILE_CACHE: 'off' });
    await off.waitFor(/Press Ctrl-C to stop/);
    off.child.kill('SIGTERM');
    expect(await off.exit).toEqual({ code: 0, signal: null });
    expect(await readdir(dir)).toEqual([]);
  });
});
