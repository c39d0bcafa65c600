import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the CLI keeps V8's compiled code between runs: `BOUNDBOOK_SANDBOX_COMPILE_CACHE` when
 * set (`off` for no cache), else `boundbook-sandbox` in the user's cache folder
 * (`$XDG_CACHE_HOME`, or `~/.cache`). A folder of the user's own, not a shared temporary one, so
 * that no other user can plant compiled code there.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env['BOUNDBOOK_SANDBOX_COMPILE_CACHE'];
  if (configured === 'off') return undefined;
  if (configured !== undefined && configured !== '') return configured;
  const cacheHome = env['XDG_CACHE_HOME'];
  return join(cacheHome !== undefined && cacheHome !== '' ? cacheHome : join(homedir(), '.cache'), 'boundbook-sandbox');
}
