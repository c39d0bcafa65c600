import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file operations {@link writeFileAtomic} uses; tests pass their own to make one fail. */
export interface AtomicWriteFileSystem {
  readonly open: typeof open;
  readonly rename: typeof rename;
  readonly rm: typeof rm;
}

const nodeFileSystem: AtomicWriteFileSystem = { open, rename, rm };

/**
 * Replaces `path` with `data` so that a reader, or the next run after a crash, sees either the
 * old file or the new one, never a part: the data goes to a temporary file in the same folder
 * (a rename is atomic only within one file system), is flushed to the disk, and is renamed over
 * `path`. On failure the temporary file is removed and `path` is left as it was.
 *
 * @example
 * ```ts
 * await writeFileAtomic('.sync-checkpoint.json', JSON.stringify(state));
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string,
  fileSystem: AtomicWriteFileSystem = nodeFileSystem,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fileSystem.open(temporary, 'wx');
    try {
      await handle.writeFile(data, 'utf8');
      // Without the flush, a power cut after the rename can leave the new name on empty data.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fileSystem.rename(temporary, path);
  } catch (error) {
    await fileSystem.rm(temporary, { force: true });
    throw error;
  }
}
