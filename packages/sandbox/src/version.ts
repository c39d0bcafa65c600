// Set by the builds (tsup.config.ts, tsup.cli.config.ts) and by the package's tests
// (vitest.config.ts) from package.json, so that no copy of the version is kept by hand. Absent
// when the sources run through another tool.
declare const __BOUNDBOOK_SANDBOX_VERSION__: string | undefined;

/**
 * The version of `@boundbook/sandbox` that runs: what `GET /_sandbox/health` answers and
 * `boundbook-sandbox --version` prints.
 */
export const SANDBOX_VERSION: string =
  typeof __BOUNDBOOK_SANDBOX_VERSION__ === 'string' ? __BOUNDBOOK_SANDBOX_VERSION__ : '0.0.0-dev';
