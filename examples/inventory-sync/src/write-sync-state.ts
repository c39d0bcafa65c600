import type { SyncState } from './sync-state';
import { writeFileAtomic } from './write-file-atomic';

/**
 * Saves the checkpoint and the mirror together, atomically (see {@link writeFileAtomic}): an
 * interrupted run leaves the previous state, from which the next run resumes.
 *
 * @example
 * ```ts
 * await writeSyncState('.sync-checkpoint.json', { ...state, checkpoint: change.checkpoint, receipts });
 * ```
 */
export async function writeSyncState(path: string, state: SyncState): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(state)}\n`);
}
