import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError, type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';
import { createSandbox } from '../../src/sandbox';

// A data file in a folder the sandbox cannot write: a read-only file system (EROFS) or a folder
// of another user (EACCES). The file system is Node's with every change refused as the kernel
// refuses it there, a recursive mkdir's ENOENT on a read-only file system included.

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-unwritable-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Node's file system, on which every change fails with `code`, as in a read-only or foreign folder. */
function unwritableFiles(code: 'EROFS' | 'EACCES'): FileSystem {
  const refuse = (call: string, path: string) =>
    Promise.reject(
      Object.assign(
        new Error(`${code}: ${code === 'EROFS' ? 'read-only file system' : 'permission denied'}, ${call} '${path}'`),
        {
          code,
          syscall: call,
          path,
        },
      ),
    );
  return {
    ...nodeFileSystem,
    open: (path, flags, mode) => (flags === 'r' ? nodeFileSystem.open(path, flags, mode) : refuse('open', path)),
    writeFile: (path) => refuse('open', path),
    rename: (from) => refuse('rename', from),
    link: (existing) => refuse('link', existing),
    // Removing what is not there succeeds with force, as on any file system.
    rm: async (path) => ((await exists(path)) ? refuse('unlink', path) : undefined),
    // A folder that exists is made with its parents; Node's recursive mkdir says ENOENT on a
    // read-only file system, where mkdir of one folder says why.
    mkdir: async (path, options) => {
      if (options.recursive && (await exists(path))) return undefined;
      if (options.recursive && code === 'EROFS') {
        throw Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${path}'`), { code: 'ENOENT' });
      }
      return refuse('mkdir', path);
    },
  };
}

function exists(path: string): Promise<boolean> {
  return nodeFileSystem.stat(path).then(
    () => true,
    () => false,
  );
}

async function startFailure(data: string, files: FileSystem): Promise<DataFileError> {
  const error = await createSandbox({ host: '127.0.0.1', port: 0, data, files }).then(
    async (sandbox) => {
      await sandbox.stop();
      throw new Error('the sandbox started');
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DataFileError);
  return error as DataFileError;
}

const READ_ONLY = (folder: string, file: string) =>
  `[@fflkit/sandbox] the folder ${folder} is on a read-only file system (EROFS), and the sandbox keeps its data file ${file}, its journal and its lock there. Start it with --memory to keep everything in memory, or give it a data file in a folder it can write (--data).`;

describe('a data file in a folder the sandbox cannot write', () => {
  it.each([
    ['of a process that is gone', { pid: 2 ** 30, host: hostname() }],
    ['of another machine, whose process cannot be looked at', { pid: 4242, host: 'another-container' }],
  ])('is said to be read-only, with what to do, whatever a lock %s says', async (_case, holder) => {
    const file = join(dir, 'sandbox.json');
    await writeFile(file, '{}');
    const lock = `${JSON.stringify({ ...holder, started_at: '2026-01-01T00:00:00.000Z' })}\n`;
    await writeFile(`${file}.lock`, lock);
    const error = await startFailure(file, unwritableFiles('EROFS'));
    expect(error.message).toBe(READ_ONLY(dir, file));
    expect(error.message).not.toMatch(/in use|process|another sandbox/);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(lock);
  });

  it('says so for a new data file whose folder cannot be made there, not ENOENT', async () => {
    const file = join(dir, 'new', 'deeper', 'sandbox.json');
    const error = await startFailure(file, unwritableFiles('EROFS'));
    expect(error.message).toBe(READ_ONLY(dir, file));
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a folder this process may not write in (EACCES) as such', async () => {
    const file = join(dir, 'sandbox.json');
    const error = await startFailure(file, unwritableFiles('EACCES'));
    expect(error.message).toBe(
      `[@fflkit/sandbox] this process may not write in the folder ${dir} (EACCES): check its owner and permissions, and the sandbox keeps its data file ${file}, its journal and its lock there. Start it with --memory to keep everything in memory, or give it a data file in a folder it can write (--data).`,
    );
    await mkdir(join(dir, 'other'));
    const nested = join(dir, 'other', 'missing', 'sandbox.json');
    expect((await startFailure(nested, unwritableFiles('EACCES'))).message).toContain(
      `may not write in the folder ${join(dir, 'other')} (EACCES)`,
    );
  });
});
