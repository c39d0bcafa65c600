import type { FileHandle } from 'node:fs/promises';
import { type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';

/** How the disk fails: full (writes stop partway), or read-only (nothing can be made or written). */
export type DiskFault = 'full' | 'read-only' | undefined;

/** An error as Node gives it for the fault. */
function faultError(fault: Exclude<DiskFault, undefined>, call: string): NodeJS.ErrnoException {
  const [code, text] = fault === 'full' ? ['ENOSPC', 'no space left on device'] : ['EROFS', 'read-only file system'];
  return Object.assign(new Error(`${code}: ${text}, ${call}`), { code, syscall: call });
}

/**
 * Node's file system with a switch: while `fault` is set, every write fails as a full disk
 * (a write stores half its bytes, then ENOSPC) or a read-only one (EROFS) would, and so do the
 * calls that make or replace files. Reads always work.
 */
export function failingFileSystem() {
  const disk = { fault: undefined as DiskFault, failures: 0 };
  const check = (call: string): void => {
    if (disk.fault === undefined) return;
    disk.failures += 1;
    throw faultError(disk.fault, call);
  };
  const wrap = (handle: FileHandle): FileHandle =>
    new Proxy(handle, {
      get(target, property, receiver) {
        if (property === 'write') {
          return async (buffer: Buffer, offset = 0, length = buffer.length - offset) => {
            if (disk.fault === 'full' && length > 1) {
              await target.write(buffer, offset, Math.floor(length / 2));
              disk.failures += 1;
              throw faultError('full', 'write');
            }
            check('write');
            return target.write(buffer, offset, length);
          };
        }
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  const files: FileSystem = {
    ...nodeFileSystem,
    async open(path, flags, mode) {
      if (flags !== 'r') check('open');
      return wrap(await nodeFileSystem.open(path, flags, mode));
    },
    async writeFile(path, data, options) {
      check('write');
      return nodeFileSystem.writeFile(path, data, options);
    },
    async rename(from, to) {
      check('rename');
      return nodeFileSystem.rename(from, to);
    },
    async mkdir(path, options) {
      check('mkdir');
      return nodeFileSystem.mkdir(path, options);
    },
  };
  return { disk, files };
}
