import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new empty folder for the running test, removed when the test finishes.
 *
 * @example
 * ```ts
 * const folder = await temporaryFolder();
 * ```
 */
export async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'inventory-sync-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return folder;
}
