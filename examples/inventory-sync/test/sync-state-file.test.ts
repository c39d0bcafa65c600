import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSyncState } from '../src/read-sync-state';
import { emptySyncState, type SyncState } from '../src/sync-state';
import { SyncStateError } from '../src/sync-state-error';
import { writeSyncState } from '../src/write-sync-state';
import { makeReceipt } from './make-receipt';
import { temporaryFolder } from './temporary-folder';

const baseUrl = 'http://127.0.0.1:4010/rest/v1';

describe('writeSyncState(path, state) and readSyncState(path)', () => {
  it('read back the checkpoint and the mirror that were written', async () => {
    const path = join(await temporaryFolder(), '.sync-checkpoint.json');
    const state: SyncState = {
      ...emptySyncState(baseUrl),
      userId: 7,
      checkpoint: { after: '2025-03-14T15:04:05Z', seen: [[1, '2025-03-14T15:04:05Z', '1x3k9q']] },
      receipts: [makeReceipt()],
    };

    await writeSyncState(path, state);

    expect(await readSyncState(path)).toEqual(state);
  });

  it('readSyncState(path) is null when there is no checkpoint file yet', async () => {
    expect(await readSyncState(join(await temporaryFolder(), 'missing.json'))).toBeNull();
  });

  it('readSyncState(path) throws a SyncStateError naming the file for a file that is not JSON', async () => {
    const path = join(await temporaryFolder(), 'notes.txt');
    await writeFile(path, 'my notes');

    await expect(readSyncState(path)).rejects.toThrow(SyncStateError);
    await expect(readSyncState(path)).rejects.toThrow(`${path} is not valid JSON`);
  });

  it('readSyncState(path) throws a SyncStateError for JSON that is not a checkpoint file of this tool', async () => {
    const path = join(await temporaryFolder(), 'package.json');
    await writeFile(path, '{"name":"something-else"}');

    await expect(readSyncState(path)).rejects.toThrow('is not a checkpoint file of inventory-sync');
  });

  it('writeSyncState(path, state) leaves only the checkpoint file in its folder', async () => {
    const folder = await temporaryFolder();

    await writeSyncState(join(folder, '.sync-checkpoint.json'), emptySyncState(baseUrl));

    expect(await readdir(folder)).toEqual(['.sync-checkpoint.json']);
  });
});
