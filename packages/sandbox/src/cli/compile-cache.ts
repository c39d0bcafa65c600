import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';

// V8's compile cache for the CLI's program, and where it is kept.
//
// Performance: the cold-start benchmark's target (at most 0.9x json-server's start, with the
// cache) relies on the launcher saving the cache only once the sandbox serves, when the whole
// start-up has been compiled, and on the CLI's program being one CommonJS file, so that one
// cache covers it (see tsup.cli.config.ts).

/**
 * Where the CLI keeps V8's compiled code between runs: `FFLKIT_SANDBOX_COMPILE_CACHE` when
 * set (`off` for no cache), else `fflkit-sandbox` in the user's cache folder
 * (`$XDG_CACHE_HOME`, or `~/.cache`). A folder of the user's own, not a shared temporary one, so
 * that no other user can plant compiled code there.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env['FFLKIT_SANDBOX_COMPILE_CACHE'];
  if (configured === 'off') return undefined;
  if (configured !== undefined && configured !== '') return configured;
  const cacheHome = env['XDG_CACHE_HOME'];
  return join(cacheHome !== undefined && cacheHome !== '' ? cacheHome : join(homedir(), '.cache'), 'fflkit-sandbox');
}

/** A CommonJS file run by {@link requireWithCompileCache}. */
export interface CompiledModule<Exports> {
  readonly exports: Exports;
  /**
   * Writes V8's compiled code of everything the module ran so far to the cache, unless the cache
   * already held it. Never throws: without a writable cache every start compiles afresh.
   */
  saveCompileCache(): void;
}

/**
 * Runs a CommonJS file as `require` would, reusing the code V8 compiled for it in an earlier run
 * (the role of `module.enableCompileCache()`, which Node 20 lacks). Compiling the CLI's one-file
 * bundle is a large part of its start-up; with the cache, V8 skips it. The cache file is named
 * by a hash of the source and of V8's version and flags, so a rebuilt bundle or another Node
 * never reads a stale cache (V8 checks it again and ignores one it cannot use), and saving it
 * removes the caches of other builds. With `cacheDir` `undefined` the file runs without a cache.
 */
export function requireWithCompileCache<Exports>(file: string, cacheDir: string | undefined): CompiledModule<Exports> {
  const bytes = readFileSync(file);
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `${basename(file)}-${cacheKey(bytes)}.bin`);
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  // The wrapper of Node's own CommonJS loader, on the first line so that line numbers hold.
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`;
  const script = new Script(wrapper, cachedData === undefined ? { filename: file } : { filename: file, cachedData });
  const module = { exports: {} as Exports };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));

  return {
    exports: module.exports,
    saveCompileCache() {
      if (cacheFile === undefined || (cachedData !== undefined && !script.cachedDataRejected)) return;
      // Written beside and renamed, so that a concurrent start never reads half a cache.
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      ignoreErrors(() => {
        mkdirSync(dirname(cacheFile), { recursive: true });
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
      });
      ignoreErrors(() => rmSync(temporary, { force: true }));
      // The caches of earlier builds are of no more use: one file per program is kept.
      ignoreErrors(() => {
        for (const name of readdirSync(dirname(cacheFile))) {
          if (name.startsWith(`${basename(file)}-`) && name.endsWith('.bin') && name !== basename(cacheFile)) {
            rmSync(join(dirname(cacheFile), name), { force: true });
          }
        }
      });
    },
  };
}

function cacheKey(source: Buffer): string {
  return createHash('sha256').update(source).update(`v8:${cachedDataVersionTag()}`).digest('hex').slice(0, 32);
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Runs `action`, ignoring its failure: the cache only saves time. */
function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // Nothing to do: the next start compiles afresh.
  }
}
