import { existsSync } from 'node:fs';

/**
 * The Chromium that the browser tests drive: `CHROMIUM_PATH`, or Debian's package at
 * `/usr/bin/chromium`. Playwright's own browser download is not used, so that the tests run
 * where only the npm registry is reachable.
 */
export const CHROMIUM_EXECUTABLE = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Vitest's global set-up of the browser project: throws unless {@link CHROMIUM_EXECUTABLE}
 * exists, saying what to do. A missing browser fails the run instead of skipping its tests; the
 * check runs only when the project does, so the other projects run without Chromium.
 *
 * @example
 * ```ts
 * defineProject({ test: { globalSetup: ['./test/support/chromium-executable.ts'] } });
 * ```
 */
export function setup(): void {
  if (!existsSync(CHROMIUM_EXECUTABLE)) {
    throw new Error(
      `[@fflkit/msw] the browser tests need Chromium at ${CHROMIUM_EXECUTABLE}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable`,
    );
  }
}
