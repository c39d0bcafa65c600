import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_EXECUTABLE } from './console-browser';

/**
 * Vitest global setup of the console's tests: fails at once, saying what to do, when Chromium
 * is missing, then builds the console from its sources into dist/console/, where the sandbox
 * (run from its sources) finds it, so the tests never drive a stale build.
 */
export default function setup(): void {
  if (!existsSync(CHROMIUM_EXECUTABLE)) {
    throw new Error(
      `[@fflkit/sandbox] the console tests need Chromium at ${CHROMIUM_EXECUTABLE}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable`,
    );
  }
  execFileSync(process.execPath, [fileURLToPath(new URL('../../../console/build.mjs', import.meta.url)), '--quiet'], {
    stdio: 'inherit',
  });
}
