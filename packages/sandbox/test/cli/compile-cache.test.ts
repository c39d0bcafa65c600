import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileCacheDir, requireWithCompileCache } from '../../src/cli/compile-cache';
import { spawnCli, waitForApiUrl } from './spawn-cli';

describe('compileCacheDir(env)', () => {
  it('returns FFLKIT_SANDBOX_COMPILE_CACHE, or undefined when it is off', () => {
    expect(compileCacheDir({ FFLKIT_SANDBOX_COMPILE_CACHE: '/var/cache/sandbox' })).toBe('/var/cache/sandbox');
    expect(compileCacheDir({ FFLKIT_SANDBOX_COMPILE_CACHE: 'off' })).toBeUndefined();
  });

  it("returns a folder in the user's cache folder by default", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/home/you/.cache' })).toBe('/home/you/.cache/fflkit-sandbox');
    expect(compileCacheDir({})).toBe(join(homedir(), '.cache', 'fflkit-sandbox'));
    expect(compileCacheDir({ FFLKIT_SANDBOX_COMPILE_CACHE: '', XDG_CACHE_HOME: '' })).toBe(
      join(homedir(), '.cache', 'fflkit-sandbox'),
    );
  });
});

describe('requireWithCompileCache(file, cacheDir)', () => {
  let dir: string;
  let file: string;
  let cacheDir: string;

  const writeProgram = (answer: string) =>
    writeFile(
      file,
      `'use strict';\nexports.answer = () => '${answer}';\nexports.where = [__filename, __dirname, typeof require];\n`,
    );

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fflkit-compile-cache-test-'));
    file = join(dir, 'program.cjs');
    cacheDir = join(dir, 'cache');
    await writeProgram('one');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the file as CommonJS and hands back its exports', () => {
    const program = requireWithCompileCache<{ answer(): string; where: string[] }>(file, cacheDir);
    expect(program.exports.answer()).toBe('one');
    expect(program.exports.where).toEqual([file, dir, 'function']);
  });

  it('saves the compiled code once, and a later run uses it instead of saving again', async () => {
    requireWithCompileCache(file, cacheDir).saveCompileCache();
    const [cacheFile] = await readdir(cacheDir);
    expect(cacheFile).toMatch(/^program\.cjs-[0-9a-f]{32}\.bin$/);
    const saved = await stat(join(cacheDir, cacheFile!));
    const again = requireWithCompileCache<{ answer(): string }>(file, cacheDir);
    again.saveCompileCache();
    expect(again.exports.answer()).toBe('one');
    expect((await stat(join(cacheDir, cacheFile!))).mtimeMs).toBe(saved.mtimeMs);
  });

  it('never reads the cache of other source, even of the same length, and keeps only the newest', async () => {
    requireWithCompileCache(file, cacheDir).saveCompileCache();
    const [first] = await readdir(cacheDir);
    await writeProgram('two');
    const changed = requireWithCompileCache<{ answer(): string }>(file, cacheDir);
    expect(changed.exports.answer()).toBe('two');
    changed.saveCompileCache();
    const [second, ...others] = await readdir(cacheDir);
    expect(others).toEqual([]);
    expect(second).toMatch(/^program\.cjs-[0-9a-f]{32}\.bin$/);
    expect(second).not.toBe(first);
  });

  it('writes nothing without a cache folder, and does not fail when it cannot write one', async () => {
    requireWithCompileCache(file, undefined).saveCompileCache();
    expect(existsSync(cacheDir)).toBe(false);
    // A folder inside a regular file cannot be made, whoever runs the test.
    const program = requireWithCompileCache<{ answer(): string }>(file, join(file, 'cache'));
    expect(() => program.saveCompileCache()).not.toThrow();
    expect(program.exports.answer()).toBe('one');
  });
});

describe('fflkit-sandbox compile cache', () => {
  let dir: string;
  let cacheDir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-cache-test-'));
    cacheDir = join(dir, 'compile-cache');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const serveOnce = async (): Promise<void> => {
    const cli = spawnCli(['--port', '0', '--memory', '--quiet'], dir, { FFLKIT_SANDBOX_COMPILE_CACHE: cacheDir });
    try {
      await waitForApiUrl(cli);
      await cli.waitFor(/Press Ctrl-C to stop/);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exit;
    }
  };

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
    const help = spawnCli(['--help'], dir, { FFLKIT_SANDBOX_COMPILE_CACHE: cacheDir });
    expect(await help.exit).toEqual({ code: 0, signal: null });
    const off = spawnCli(['--port', '0', '--memory'], dir, { FFLKIT_SANDBOX_COMPILE_CACHE: 'off' });
    await off.waitFor(/Press Ctrl-C to stop/);
    off.child.kill('SIGTERM');
    expect(await off.exit).toEqual({ code: 0, signal: null });
    expect(await readdir(dir)).toEqual([]);
  });
});
