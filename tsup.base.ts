import type { Options } from 'tsup';

/**
 * How every package is built: ESM and CommonJS from `src/index.ts`, each with its declarations and
 * source maps, for ES2022 (every runtime the packages support). A package's own config adds what
 * is particular to it.
 */
export function packageBuild(options: Options = {}): Options {
  return {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    ...options,
  };
}
