import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError, type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';
import { DataFileLock } from '../../src/persistence/lock';
import { startSandbox } from '../../src/start-sandbox';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-sandbox-lock-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The lock of a process that is gone: no process has this id. */
const staleLock = () =>
  `${JSON.stringify({ pid: 2 ** 30, host: hostname(), started_at: '2026-01-01T00:00:00.000Z' })}\n`;

describe('DataFileLock.acquire(dataFile, files)', () => {
  it('takes over the lock of a process that is gone, leaving nothing beside it', async () => {
    const file = join(dir, 'sandbox.json');
    await writeFile(`${file}.lock`, staleLock());
    const lock = await DataFileLock.acquire(file, nodeFileSystem);
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
    await lock.release();
  });

  it('makes the lock file whole in one step, never empty for another sandbox to read', async () => {
    const file = join(dir, 'sandbox.json');
    const lockOps: string[] = [];
    const files: FileSystem = {
      ...nodeFileSystem,
      writeFile: async (path, data, options) => {
        if (path === `${file}.lock`) lockOps.push('writeFile');
        await nodeFileSystem.writeFile(path, data, options);
      },
      link: async (existing, path) => {
        if (path === `${file}.lock`) lockOps.push(`link of ${JSON.parse(await readFile(existing, 'utf8')).pid}`);
        await nodeFileSystem.link(existing, path);
      },
    };
    const lock = await DataFileLock.acquire(file, files);
    expect(lockOps).toEqual([`link of ${process.pid}`]);
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
    await lock.release();
  });

  it('refuses, and puts it back, when another sandbox took the stale lock over at the same moment', async () => {
    const file = join(dir, 'sandbox.json');
    await writeFile(`${file}.lock`, staleLock());
    const other = `${JSON.stringify({ pid: process.ppid, host: hostname(), started_at: '2026-11-24T00:00:00.000Z' })}\n`;
    // Between this sandbox's read of the stale lock and its move, the other one replaces it.
    let raced = false;
    const files: FileSystem = {
      ...nodeFileSystem,
      rename: async (from, to) => {
        if (!raced && to.endsWith('.stale')) {
          raced = true;
          await writeFile(from, other);
        }
        await nodeFileSystem.rename(from, to);
      },
    };
    const attempt = DataFileLock.acquire(file, files);
    await expect(attempt).rejects.toThrow(DataFileError);
    await expect(attempt).rejects.toThrow(`another sandbox (process ${process.ppid} on ${hostname()}) took`);
    expect(raced).toBe(true);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(other);
    expect(await readdir(dir)).toEqual(['sandbox.json.lock']);
  });
});

describe('one sandbox per data file', () => {
  it('refuses a second sandbox on a symbolic link to the data file of a running one', async () => {
    const file = join(dir, 'real', 'sandbox.json');
    const first = await startSandbox({ data: file });
    try {
      await mkdir(join(dir, 'elsewhere'));
      await symlink(file, join(dir, 'elsewhere', 'sandbox.json'));
      await expect(startSandbox({ data: join(dir, 'elsewhere', 'sandbox.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
      // The same through a link to the folder.
      await symlink(join(dir, 'real'), join(dir, 'linked'));
      await expect(startSandbox({ data: join(dir, 'linked', 'sandbox.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
      // A link, not yet written through, whose `..` leaves the real folder of a linked folder.
      await mkdir(join(dir, 'real', 'deeper'));
      await symlink('../sandbox.json', join(dir, 'real', 'deeper', 'link.json'));
      await symlink(join(dir, 'real', 'deeper'), join(dir, 'deep'));
      await expect(startSandbox({ data: join(dir, 'deep', 'link.json') })).rejects.toThrow(
        /is in use by another sandbox/,
      );
    } finally {
      await first.stop();
    }
  });
});
