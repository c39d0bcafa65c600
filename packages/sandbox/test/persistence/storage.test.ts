import { type CoreChangeSet, createSandboxCore, type SandboxSnapshot, SnapshotError } from '@fflkit/sandbox-core';
import { describe, expect, it } from 'vitest';
import { FileStorage } from '../../src/persistence/file-storage';
import { MemoryStorage } from '../../src/persistence/memory-storage';
import { CorePersister } from '../../src/persistence/persister';
import { openStorage, type Storage } from '../../src/persistence/storage';
import { receiptRequest } from '../support/receipt-body';

/**
 * A third backend, made here as another would be made: it keeps the change sets it is given and
 * the snapshots it folds, fails the commits it is told to, and asks for a compaction once
 * `compactEvery` commits are not folded yet.
 */
class ListStorage implements Storage {
  readonly durable = true;
  readonly calls: string[] = [];
  readonly committed: CoreChangeSet[] = [];
  readonly folded: SandboxSnapshot[] = [];
  failNext = false;
  #sinceFold = 0;

  constructor(readonly compactEvery = Number.POSITIVE_INFINITY) {}

  open(): Promise<SandboxSnapshot | null> {
    this.calls.push('open');
    return Promise.resolve(null);
  }

  commit(changeSet: CoreChangeSet): Promise<void> {
    this.calls.push(`commit ${changeSet.base}->${changeSet.version}`);
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('the disk is full'));
    }
    this.committed.push(changeSet);
    this.#sinceFold += 1;
    return Promise.resolve();
  }

  compactionDue(closing: boolean, changed: boolean): boolean {
    return (closing && (changed || this.#sinceFold > 0)) || this.#sinceFold >= this.compactEvery;
  }

  compact(snapshot: SandboxSnapshot): Promise<void> {
    this.calls.push(`compact ${snapshot['version']}`);
    this.folded.push(snapshot);
    this.#sinceFold = 0;
    return Promise.resolve();
  }

  damaged(error: SnapshotError): Error {
    return new Error(`the list cannot be restored: ${error.reason}`);
  }

  close(): Promise<void> {
    this.calls.push('close');
    return Promise.resolve();
  }
}

/** A core persisted to `storage`, with an account already committed; `post(n)` answers as the server does. */
async function persistedTo(storage: Storage) {
  await storage.open();
  const core = createSandboxCore({ recordChanges: storage.durable, rateLimit: 0 });
  const persister = new CorePersister(core, storage);
  const { token } = core.createAccount();
  await persister.settle();
  const post = async (n: number): Promise<number> => {
    const mark = persister.mark();
    const response = await core.handle(receiptRequest(token, n));
    await persister.settle(mark);
    return response.status;
  };
  return { core, persister, post };
}

describe('openStorage()', () => {
  it('keeps the state in memory without a data file, and in the data file and its journal with one', () => {
    expect(openStorage({ data: undefined })).toBeInstanceOf(MemoryStorage);
    expect(openStorage({ data: '/nowhere/sandbox.json' })).toBeInstanceOf(FileStorage);
  });
});

describe('MemoryStorage', () => {
  it('is not durable, holds no state, and is never committed to', async () => {
    const storage = new MemoryStorage();
    expect(storage.durable).toBe(false);
    expect(await storage.open()).toBeNull();
    const commit = storage.commit.bind(storage);
    const commits: unknown[] = [];
    storage.commit = (...args) => {
      commits.push(args);
      return commit();
    };
    const { core, persister, post } = await persistedTo(storage);
    expect(await post(1)).toBe(201);
    expect(persister.dirty).toBe(false);
    await persister.close();
    expect(commits).toEqual([]);
    expect(core.snapshot().receipts).toHaveLength(1);
  });

  it('passes on the error of a snapshot it is given as it is', () => {
    const error = new SnapshotError('it names no version');
    expect(new MemoryStorage().damaged(error)).toBe(error);
  });
});

describe('the persister over any Storage', () => {
  it('commits each change set in turn, chained by version, and confirms it to the core', async () => {
    const storage = new ListStorage();
    const { core, post } = await persistedTo(storage);
    await post(1);
    await post(2);
    expect(storage.calls).toEqual(['open', 'commit 0->1', 'commit 1->2', 'commit 2->3']);
    expect(storage.committed.at(-1)?.changes.map((change) => change.collection)).toEqual([
      'receipts',
      'books',
      'audit',
    ]);
    expect(core.version).toBe(3);
  });

  it('compacts when the storage says so, with the snapshot of the version just committed', async () => {
    // One commit not folded (the account's): the next is followed by a compaction.
    const storage = new ListStorage(1);
    const { persister, post } = await persistedTo(storage);
    await post(1);
    await persister.compacted();
    expect(storage.calls).toEqual(['open', 'commit 0->1', 'commit 1->2', 'compact 2']);
    expect(storage.folded[0]?.['receipts']).toHaveLength(1);
  });

  it('takes back a change whose commit fails: the request is refused, the core is as the storage holds it', async () => {
    const storage = new ListStorage();
    const { core, post } = await persistedTo(storage);
    storage.failNext = true;
    await expect(post(1)).rejects.toThrow('the disk is full');
    expect(core.snapshot().receipts).toEqual([]);
    expect(await post(2)).toBe(201);
    expect(core.snapshot().receipts.map((receipt) => receipt.id)).toEqual([1]);
  });

  it('folds what is committed and closes the storage on close(), in that order', async () => {
    const storage = new ListStorage();
    const { persister, post } = await persistedTo(storage);
    await post(1);
    await persister.close();
    expect(storage.calls.slice(-2)).toEqual(['compact 2', 'close']);
  });
});
