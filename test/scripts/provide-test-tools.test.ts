import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/provide-test-tools.mjs', import.meta.url).pathname;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-test-tools-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the script with `args` and `env` added; resolves with its exit code and output. */
function provide(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), output: `${stdout}${stderr}` }),
    );
  });
}

/** A stand-in executable in the test's folder: a script that prints `version` and exits with `code`. */
async function fake(name: string, version: string, code = 0): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\necho "${version}"\nexit ${code}\n`);
  await chmod(path, 0o755);
  return path;
}

describe('scripts/provide-test-tools.mjs, before pnpm test', () => {
  it('uses the Chromium named by CHROMIUM_PATH, python3 and php from the PATH, and prints their versions', async () => {
    const chromium = await fake('chromium', 'Chromium 150.0.0.0');
    await fake('python3', 'Python 3.99.1');
    await fake('php', 'PHP 9.1.0 (cli)\nCopyright');
    expect(await provide([], { CHROMIUM_PATH: chromium, PATH: `${dir}:${process.env['PATH']}` })).toEqual({
      code: 0,
      output:
        `chromium for the browser tests: Chromium 150.0.0.0 (${chromium})\n` +
        'python3 for the Python receiver: Python 3.99.1 (python3)\n' +
        'php for the PHP receiver: PHP 9.1.0 (cli) (php)\n',
    });
  });

  it('provides Chromium alone with --only chromium', async () => {
    const chromium = await fake('chromium', 'Chromium 150.0.0.0');
    expect(await provide(['--only', 'chromium'], { CHROMIUM_PATH: chromium })).toEqual({
      code: 0,
      output: `chromium for the browser tests: Chromium 150.0.0.0 (${chromium})\n`,
    });
  });

  it('fails, saying so, when CHROMIUM_PATH names nothing, rather than skipping the browser tests', async () => {
    const outcome = await provide(['--only', 'chromium'], { CHROMIUM_PATH: join(dir, 'missing') });
    expect(outcome).toEqual({
      code: 1,
      output: `pnpm test needs Chromium for the browser tests: CHROMIUM_PATH is ${join(dir, 'missing')}, which does not exist.\n`,
    });
  });

  it('fails when a tool found does not start', async () => {
    const chromium = await fake('chromium', 'broken', 3);
    const outcome = await provide(['--only', 'chromium'], { CHROMIUM_PATH: chromium });
    expect(outcome).toEqual({
      code: 1,
      output: `pnpm test needs chromium for the browser tests: ${chromium} does not start (--version failed).\n`,
    });
  });

  it('refuses a tool it does not know after --only', async () => {
    expect(await provide(['--only', 'ruby'], {})).toEqual({
      code: 1,
      output: 'pnpm test needs a tool it knows after --only (chromium, python3, php).\n',
    });
  });
});
