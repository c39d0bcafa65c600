import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireWithCompileCache } from '../../src/cli/require-with-compile-cache';

let dir: string;
let file: string;
let cacheDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-compile-cache-test-'));
  file = join(dir, 'program.cjs');
  cacheDir = join(dir, 'cache');
  await writeProgram('one');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const writeProgram = (answer: string) =>
  writeFile(file, `'use strict';\nexports.answer = () => '${answer}';\nexports.where = [__filename, __dirname, typeof require];\n`);

describe('requireWithCompileCache(file, cacheDir)', () => {
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
