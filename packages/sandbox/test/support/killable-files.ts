import type { FileHandle } from 'node:fs/promises';
import { type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';

/**
 * Node's file system, keeping the files it opens, for a sandbox a test abandons as if killed:
 * `closeAsKilled()` closes each where it stands, as the system closes a killed process's files,
 * and nothing more is written. A handle left to the garbage collector fails the test file.
 */
export function killableFiles(): { files: FileSystem; closeAsKilled(): Promise<void> } {
  const handles = new Set<FileHandle>();
  return {
    files: {
      ...nodeFileSystem,
      async open(path, flags, mode) {
        const handle = await nodeFileSystem.open(path, flags, mode);
        handles.add(handle);
        return handle;
      },
    },
    async closeAsKilled() {
      await Promise.all([...handles].map((handle) => handle.close().catch(() => undefined)));
      handles.clear();
    },
  };
}
