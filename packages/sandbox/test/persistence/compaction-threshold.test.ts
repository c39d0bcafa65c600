import { createSandboxCore } from '@fflkit/sandbox-core';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SnapshotFile } from '../../src/persistence/data-file';
import { DEFAULT_COMPACT_AT_DATA_FILE_SHARE, FileStorage } from '../../src/persistence/file-storage';
import type { Journal } from '../../src/persistence/journal';
import { CorePersister } from '../../src/persistence/persister';
import { receiptRequest } from '../support/receipt-body';
import { canonical, journalFiles, readStateOnDisk } from '../support/state-on-disk';

let dir: string;
let file: string;
let storage: FileStorage | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-compaction-threshold-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await storage?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A data file of `receipts` receipts, and a persister over it folding at 1 KiB and `share` of the file. */
async function persistedOver(receipts: number, share: number | undefined) {
  const seed = createSandboxCore({ rateLimit: 0 });
  const { token } = seed.createAccount();
  for (let n = 1; n <= receipts; n += 1) await seed.handle(receiptRequest(token, n));
  await new SnapshotFile(file).write(seed.snapshot());
  storage = new FileStorage(file, { compactAtBytes: 1024, compactAtDataFileShare: share });
  const snapshot = await storage.open();
  const journal: Journal = storage.journal;
  const core = createSandboxCore({ snapshot: snapshot!, recordChanges: true, rateLimit: 0 });
  const persister = new CorePersister(core, storage);
  let n = receipts;
  const post = async (): Promise<void> => {
    const mark = persister.mark();
    expect((await core.handle(receiptRequest(token, (n += 1)))).status).toBe(201);
    await persister.settle(mark);
    await persister.compacted();
  };
  return { core, post, journal, dataFileBytes: (await stat(file)).size };
}

describe('CorePersister with compactAtDataFileShare', () => {
  it('folds the journal in only once it reaches that share of the data file, past compactAtBytes', async () => {
    const { core, post, journal: segments, dataFileBytes } = await persistedOver(60, 0.5);
    expect(dataFileBytes / 2).toBeGreaterThan(4 * 1024);
    await post();
    // Past 1 KiB, the journal is not folded in until it holds half the data file's size.
    while (segments.bytes < dataFileBytes / 2) {
      expect(await journalFiles(file)).toEqual(['sandbox.json.journal.1']);
      await post();
    }
    await post();
    expect(await journalFiles(file)).toEqual([]);
    expect(canonical(await readStateOnDisk(file))).toEqual(canonical(core.snapshot()));
  });

  it('folds at compactAtBytes alone without a share', async () => {
    const { post, journal: segments } = await persistedOver(60, undefined);
    while (segments.bytes < 1024) await post();
    await post();
    expect(await journalFiles(file)).toEqual([]);
  });

  it('is a quarter of the data file by default', () => {
    expect(DEFAULT_COMPACT_AT_DATA_FILE_SHARE).toBe(0.25);
  });
});
