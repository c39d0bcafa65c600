import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from 'tsup';
import { cliBuilds } from '../../tsup.cli.config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the CLI bundled from the sources, to spawn with `node`. */
    cliBundle: string;
  }
}

/**
 * Vitest global setup: builds the CLI as `pnpm build` does (the launcher and the one-file
 * program, the workspace packages from their sources) into a temporary folder, so the CLI tests
 * spawn the real CLI on a fresh clone without a prior build of the workspace. The CLIs that the
 * tests spawn keep their compile cache in that folder too.
 */
export default async function bundleCli(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-cli-'));
  for (const options of cliBuilds) {
    await build({ ...options, outDir, config: false, silent: true });
  }
  process.env['FFLKIT_SANDBOX_COMPILE_CACHE'] = join(outDir, 'compile-cache');
  project.provide('cliBundle', join(outDir, 'cli.cjs'));
  return () => rm(outDir, { recursive: true, force: true });
}
