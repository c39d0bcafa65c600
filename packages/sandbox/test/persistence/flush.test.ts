import { createSandboxCore } from '@fflkit/sandbox-core';
import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FileSystem, nodeFileSystem } from '../../src/persistence/data-file';
import { FileStorage } from '../../src/persistence/file-storage';
import { CorePersister } from '../../src/persistence/persister';
import { receiptRequest } from '../support/receipt-body';

let dir: string;
let file: string;
const opened: FileStorage[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-flush-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
  await rm(dir, { recursive: true, force: true });
});

/**
 * Node's file system, noting each write, flush and rename of the data file's folder as it is
 * made: `write NAME`, `datasync NAME`, `rename FROM TO`, `sync FOLDER` (a folder's entries).
 */
function recordingFileSystem() {
  const log: string[] = [];
  const name = (path: string): string => (path === dir ? 'folder' : basename(path));
  const wrap = (handle: FileHandle, path: string): FileHandle =>
    new Proxy(handle, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = (value as (...args: unknown[]) => unknown).bind(target);
        if (property !== 'write' && property !== 'datasync' && property !== 'sync') return call;
        return (...args: unknown[]) => {
          log.push(`${property === 'sync' ? 'sync' : property} ${name(path)}`);
          return call(...args);
        };
      },
    });
  const files: FileSystem = {
    ...nodeFileSystem,
    open: async (path, flags, mode) => wrap(await nodeFileSystem.open(path, flags, mode), path),
    rename: async (from, to) => {
      log.push(`rename ${name(from)} ${name(to)}`);
      await nodeFileSystem.rename(from, to);
    },
  };
  return { log, files };
}

/** A core committed to a storage on the test's data file; `post(n)` resolves once receipt n is saved. */
async function committed(flush: boolean | undefined) {
  const { log, files } = recordingFileSystem();
  const storage = new FileStorage(file, { files, flush });
  await storage.open();
  opened.push(storage);
  const core = createSandboxCore({ recordChanges: true, rateLimit: 0 });
  const persister = new CorePersister(core, storage);
  const { token } = core.createAccount();
  const post = async (n: number): Promise<void> => {
    expect((await core.handle(receiptRequest(token, n))).status).toBe(201);
    await persister.settle();
  };
  return { log, persister, post };
}

describe('FileStorage with flush (the default)', () => {
  it('flushes a new data file and its name to the disk before the first commit resolves', async () => {
    const { log, persister } = await committed(undefined);
    await persister.settle();
    expect(log).toEqual([
      'write .sandbox.json.tmp',
      'datasync .sandbox.json.tmp',
      'rename .sandbox.json.tmp sandbox.json',
      'sync folder',
    ]);
  });

  it('flushes each journal line before its commit resolves, and a new segment with its name and the lock', async () => {
    const { log, persister, post } = await committed(undefined);
    await persister.settle();
    log.length = 0;
    await post(1);
    expect(log).toEqual([
      'write sandbox.json.journal.1.tmp',
      'datasync sandbox.json.journal.1.tmp',
      'rename sandbox.json.journal.1.tmp sandbox.json.journal.1',
      'rename sandbox.json.lock.tmp sandbox.json.lock',
      'sync folder',
    ]);
    log.length = 0;
    await post(2);
    expect(log).toEqual(['write sandbox.json.journal.1', 'datasync sandbox.json.journal.1']);
  });

  it('flushes the data file a compaction writes before the segments it holds are deleted', async () => {
    const { log, persister, post } = await committed(undefined);
    await persister.settle();
    await post(1);
    log.length = 0;
    await persister.close();
    opened.length = 0;
    expect(log).toEqual([
      'write .sandbox.json.tmp',
      'datasync .sandbox.json.tmp',
      'rename .sandbox.json.tmp sandbox.json',
      'sync folder',
    ]);
  });
});

describe('FileStorage with flush: false', () => {
  it('writes the same files without flushing any to the disk', async () => {
    const { log, persister, post } = await committed(false);
    await persister.settle();
    await post(1);
    await post(2);
    expect(log).toEqual([
      'write .sandbox.json.tmp',
      'rename .sandbox.json.tmp sandbox.json',
      'write sandbox.json.journal.1.tmp',
      'rename sandbox.json.journal.1.tmp sandbox.json.journal.1',
      'rename sandbox.json.lock.tmp sandbox.json.lock',
      'write sandbox.json.journal.1',
    ]);
  });
});
