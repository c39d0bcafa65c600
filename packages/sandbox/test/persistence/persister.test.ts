import { createSandboxCore, type SandboxSnapshot } from '@fflkit/sandbox-core';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError, type SnapshotDatabase } from '../../src/persistence/data-file';
import { DEFAULT_COMPACT_AT_BYTES, FileStorage } from '../../src/persistence/file-storage';
import { CorePersister, GroupCommit } from '../../src/persistence/persister';
import { receiptRequest } from '../support/receipt-body';
import { canonical, journalFiles, readStateOnDisk } from '../support/state-on-disk';

let dir: string;
let file: string;
const open: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-persister-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((journal) => journal.close()));
  await rm(dir, { recursive: true, force: true });
});

/**
 * A core persisted to the test's data file with a journal that compacts from `compactAtBytes`,
 * with an account already on disk. `post(n)` makes receipt `n` and resolves once it is saved,
 * as the server answers it.
 */
async function persisted(compactAtBytes: number) {
  const storage = new FileStorage(file, { compactAtBytes });
  await storage.open();
  open.push(storage);
  const { database, journal } = storage;
  const core = createSandboxCore({ recordChanges: true, rateLimit: 0 });
  const persister = new CorePersister(core, storage);
  const { token } = core.createAccount();
  await persister.settle();
  const post = async (n: number): Promise<void> => {
    const mark = persister.mark();
    const response = await core.handle(receiptRequest(token, n));
    if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
    await persister.settle(mark);
  };
  const dataFile = async (): Promise<SandboxSnapshot> => JSON.parse(await readFile(file, 'utf8')) as SandboxSnapshot;
  return { core, database, journal, persister, post, dataFile, token };
}

/** Holds the data file's writes until `release()`; `started` settles when one is asked for. */
function holdWrites(database: SnapshotDatabase, outcome: 'write' | 'fail' = 'write') {
  const { adapter } = database;
  const write = adapter.write.bind(adapter);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const asked = new Promise<void>((resolve) => (started = resolve));
  let writes = 0;
  adapter.write = async (data) => {
    writes += 1;
    started();
    await released;
    if (outcome === 'fail') {
      adapter.write = write;
      throw new DataFileError(file, 'disk full');
    }
    return write(data);
  };
  return { release, started: asked, writes: () => writes };
}

describe('CorePersister with a journal', () => {
  it('persist() appends the changes to the journal and leaves the data file as it was', async () => {
    const { core, post, dataFile } = await persisted(1 << 20);
    const before = await dataFile();
    await post(1);
    await post(2);
    expect(await dataFile()).toEqual(before);
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.1']);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));
  });

  it('compacts once the journal reaches compactAtBytes: the data file takes the state, the old segment goes', async () => {
    const { core, journal, persister, post, dataFile } = await persisted(4096);
    let n = 0;
    while (journal.bytes < 4096) await post((n += 1));
    const version = core.version;
    await post((n += 1));
    await persister.compacted();
    expect(await dataFile()).toMatchObject({ version: version + 1 });
    expect(canonical(await dataFile())).toEqual(canonical(core.snapshot()));
    expect(await journalFiles(file)).toEqual([]);
    await post((n += 1));
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.2']);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));
  });

  it('goes on answering during a compaction: new commits go to a new segment, the old one stays until the rename', async () => {
    const { core, database, journal, persister, post, dataFile } = await persisted(4096);
    let n = 0;
    while (journal.bytes < 4096) await post((n += 1));
    const held = holdWrites(database);
    await post((n += 1));
    await held.started;
    const before = await dataFile();
    await Promise.all(Array.from({ length: 20 }, () => post((n += 1))));
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.1', 'sandbox.json.journal.2']);
    expect(await dataFile()).toEqual(before);
    // Killed now, a restart would find every acknowledged change.
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));

    held.release();
    await persister.compacted();
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.2']);
    expect((await dataFile())['version']).toBeLessThan(core.version);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));
    expect(held.writes()).toBe(1);
  });

  it('keeps every segment when a compaction fails, and tries again once the journal has grown as much again', async () => {
    const { core, database, journal, persister, post, dataFile } = await persisted(4096);
    let n = 0;
    while (journal.bytes < 4096) await post((n += 1));
    const failing = holdWrites(database, 'fail');
    await post((n += 1));
    failing.release();
    await persister.compacted();
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.1']);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));

    const grownFrom = journal.bytes;
    const retry = holdWrites(database);
    retry.release();
    while (journal.bytes < grownFrom + 4096) await post((n += 1));
    expect(retry.writes()).toBe(0);
    await post((n += 1));
    await persister.compacted();
    expect(retry.writes()).toBe(1);
    expect(await journalFiles(file)).toEqual([]);
    expect(canonical(await dataFile())).toEqual(canonical(core.snapshot()));
  });

  it('reverts the core when an append fails: the change is neither on disk nor in memory, and its numbers are given again', async () => {
    const { core, journal, post } = await persisted(1 << 20);
    await post(1);
    const append = journal.append.bind(journal);
    journal.append = () => {
      journal.append = append;
      return Promise.reject(new DataFileError(file, 'disk full'));
    };
    const before = core.snapshot();
    await expect(post(2)).rejects.toThrow('disk full');
    expect(canonical(core.snapshot())).toEqual(canonical(before));
    await post(3);
    const onDisk = await readStateOnDisk(file);
    const receipts = onDisk?.['receipts'] as { id: number; record: number; serial_number: string }[];
    expect(receipts.map((receipt) => [receipt.id, receipt.record])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(canonical(onDisk)).toEqual(canonical(core.snapshot()));
  });

  it('rejects every request whose change the failed write took back, and every answer computed on it', async () => {
    const { core, journal, persister, post, token } = await persisted(1 << 20);
    await post(1);
    let fail!: (error: Error) => void;
    const append = journal.append.bind(journal);
    journal.append = () =>
      new Promise((_, reject) => {
        journal.append = append;
        fail = reject;
      });
    const mark = persister.mark();
    const inFlight = post(2).catch((error: unknown) => error);
    await new Promise((resolve) => setImmediate(resolve));
    // Made while the write of receipt 2 is in flight: its change rides on the next write.
    const next = post(3).catch((error: unknown) => error);
    const read = await core.handle({
      method: 'GET',
      path: '/rest/v1/receipts',
      query: '',
      headers: { authorization: `Bearer ${token}` },
    });
    expect((read.body as { meta: { total: number } }).meta.total).toBe(3);
    const readSettled = persister.settle(mark).catch((error: unknown) => error);
    fail(new DataFileError(file, 'disk full'));
    expect(await inFlight).toBeInstanceOf(DataFileError);
    expect(await next).toBeInstanceOf(DataFileError);
    expect(await readSettled).toBeInstanceOf(DataFileError);
    expect(core.snapshot().receipts).toHaveLength(1);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));
    await post(4);
    expect(core.snapshot().receipts.map((receipt) => receipt.id)).toEqual([1, 2]);
  });

  it('close() folds the journal into the data file and deletes every segment', async () => {
    const { core, persister, post, dataFile } = await persisted(1 << 20);
    await post(1);
    await post(2);
    await persister.close();
    expect(await journalFiles(file)).toEqual([]);
    expect(await dataFile()).toEqual(JSON.parse(JSON.stringify(core.snapshot())));
  });

  it('close() writes nothing when nothing changed since the data file was written', async () => {
    const { database, persister } = await persisted(1 << 20);
    const held = holdWrites(database);
    held.release();
    await persister.close();
    expect(held.writes()).toBe(0);
  });
});

/** A write whose completion the test controls, recording what state each write saw. */
function controlledWrites(state: { value: number }) {
  const seen: number[] = [];
  const finishers: (() => void)[] = [];
  const write = () => {
    seen.push(state.value);
    return new Promise<void>((resolve) => finishers.push(resolve));
  };
  const finishNext = async () => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { seen, write, finishNext, pending: () => finishers.length };
}

describe('GroupCommit', () => {
  it('request() starts a write at once and resolves when it finishes', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    let done = false;
    void commit.request().then(() => (done = true));
    expect(writes.seen).toEqual([1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    await writes.finishNext();
    expect(done).toBe(true);
  });

  it('requests made during a write share the next single write, which sees their state', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    const first = commit.request();
    const later: Promise<void>[] = [];
    for (let index = 0; index < 50; index += 1) {
      state.value += 1;
      later.push(commit.request());
    }
    let laterDone = false;
    void Promise.all(later).then(() => (laterDone = true));
    await writes.finishNext();
    await first;
    expect(laterDone).toBe(false);
    expect(writes.seen).toEqual([1, 51]);
    await writes.finishNext();
    expect(laterDone).toBe(true);
    expect(writes.seen).toHaveLength(2);
  });

  it('rejects the requests of a failed write and goes on writing for the next ones', async () => {
    let fail = true;
    const commit = new GroupCommit(async () => {
      if (fail) throw new Error('disk full');
    });
    await expect(commit.request()).rejects.toThrow('disk full');
    fail = false;
    await expect(commit.request()).resolves.toBeUndefined();
  });

  it('idle() waits for the write in flight and the one queued behind it', async () => {
    const state = { value: 1 };
    const writes = controlledWrites(state);
    const commit = new GroupCommit(writes.write);
    void commit.request();
    void commit.request();
    let idle = false;
    void commit.idle().then(() => (idle = true));
    await writes.finishNext();
    expect(idle).toBe(false);
    await writes.finishNext();
    expect(idle).toBe(true);
    expect(writes.pending()).toBe(0);
  });
});

describe('FileStorage', () => {
  it('folds the journal in from 64 MiB by default', () => {
    expect(DEFAULT_COMPACT_AT_BYTES).toBe(64 * 2 ** 20);
  });
});
