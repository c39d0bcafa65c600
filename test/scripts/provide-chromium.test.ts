import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = new URL('../../scripts/provide-chromium.mjs', import.meta.url).pathname;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-chromium-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the script with CHROMIUM_PATH set to `chromium`; resolves with its exit code and output. */
function provide(chromium: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SCRIPT],
      { env: { ...process.env, CHROMIUM_PATH: chromium } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), output: `${stdout}${stderr}` }),
    );
  });
}

/** A stand-in Chromium: a script that prints `version` and exits with `code`. */
async function fakeChromium(version: string, code = 0): Promise<string> {
  const path = join(dir, 'chromium');
  await writeFile(path, `#!/bin/sh\necho "${version}"\nexit ${code}\n`);
  await chmod(path, 0o755);
  return path;
}

describe('scripts/provide-chromium.mjs, before pnpm test', () => {
  it('uses the Chromium named by CHROMIUM_PATH and prints its version', async () => {
    const chromium = await fakeChromium('Chromium 150.0.0.0');
    expect(await provide(chromium)).toEqual({
      code: 0,
      output: `Chromium for the browser tests: Chromium 150.0.0.0 (${chromium})\n`,
    });
  });

  it('fails, saying so, when CHROMIUM_PATH names nothing, rather than skipping the browser tests', async () => {
    const outcome = await provide(join(dir, 'missing'));
    expect(outcome.code).toBe(1);
    expect(outcome.output).toBe(
      `pnpm test needs Chromium for the browser tests: CHROMIUM_PATH is ${join(dir, 'missing')}, which does not exist.\n`,
    );
  });

  it('fails when the Chromium found does not start', async () => {
    const chromium = await fakeChromium('broken', 3);
    const outcome = await provide(chromium);
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain(`${chromium} does not start (--version exited 3)`);
  });
});
