import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { build } from 'tsup';
import { cliOptions } from '../../tsup.cli.config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the CLI bundled from the sources, to spawn with `node`. */
    cliBundle: string;
  }
}

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Vitest global setup: builds the CLI as `pnpm build` does (one file, the workspace packages
 * from their sources) into a temporary folder, so the CLI tests spawn the real CLI on a fresh
 * clone without a prior build of the workspace.
 */
export default async function bundleCli(project: TestProject): Promise<() => Promise<void>> {
  const outDir = await mkdtemp(join(tmpdir(), 'boundbook-sandbox-cli-'));
  await build({
    ...cliOptions,
    entry: { cli: join(packageDir, 'src/cli.ts') },
    tsconfig: join(packageDir, 'tsconfig.json'),
    outDir,
    config: false,
    silent: true,
  });
  project.provide('cliBundle', join(outDir, 'cli.js'));
  return () => rm(outDir, { recursive: true, force: true });
}
