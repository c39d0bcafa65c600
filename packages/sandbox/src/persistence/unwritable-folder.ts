import { dirname } from 'node:path';
import type { FileSystem } from './data-file';

// A folder the sandbox cannot write in: a read-only file system (EROFS) or one this process may
// not write to (EACCES, EPERM). The data file, its journal and its lock all live in that folder,
// so such a folder stops the start, told as what it is, with the two ways on; it is never told
// as a lock held by another sandbox, whatever process a stale lock there names.

/**
 * What to say when a write, rename or creation in `folder` failed with `error` because the folder
 * cannot be written; `undefined` for any other failure.
 */
export function unwritableFolderReason(dataFile: string, folder: string, error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') return undefined;
  const what =
    code === 'EROFS'
      ? `the folder ${folder} is on a read-only file system (EROFS)`
      : `this process may not write in the folder ${folder} (${code}): check its owner and permissions`;
  return `${what}, and the sandbox keeps its data file ${dataFile}, its journal and its lock there. Start it with --memory to keep everything in memory, or give it a data file in a folder it can write (--data).`;
}

/**
 * Why the folders of a data file could not be made, when it is that they cannot be written: a
 * recursive `mkdir` says ENOENT on a read-only file system, so the first missing folder is made
 * alone, which tells. `undefined` when the cause is something else.
 */
export async function unwritableParentReason(
  dataFile: string,
  files: Pick<FileSystem, 'stat' | 'mkdir'>,
): Promise<string | undefined> {
  let missing = dirname(dataFile);
  for (let parent = dirname(missing); parent !== missing; missing = parent, parent = dirname(parent)) {
    const exists = await files.stat(parent).then(
      () => true,
      () => false,
    );
    if (exists) break;
  }
  try {
    await files.mkdir(missing, { recursive: false });
    return undefined;
  } catch (error) {
    return unwritableFolderReason(dataFile, dirname(missing), error);
  }
}
