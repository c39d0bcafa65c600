// Set by the builds (tsup.config.ts, tsup.cli.config.ts) and by the package's tests
// (vitest.config.ts) from package.json, so that no copy of the version is kept by hand. Absent
// when the sources run through another tool.
declare const __FFLKIT_SANDBOX_VERSION__: string | undefined;

/**
 * The version of `@fflkit/sandbox` that runs: what `GET /_sandbox/health` answers and
 * `fflkit-sandbox --version` prints.
 */
export const SANDBOX_VERSION: string =
  typeof __FFLKIT_SANDBOX_VERSION__ === 'string' ? __FFLKIT_SANDBOX_VERSION__ : '0.0.0-dev';
