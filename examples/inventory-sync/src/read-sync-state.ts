import { readFile } from 'node:fs/promises';
import { SYNC_STATE_FORMAT, type SyncState } from './sync-state';
import { SyncStateError } from './sync-state-error';

/**
 * Reads the checkpoint file: `null` when there is none yet (the first sync pulls everything).
 * A file that is not this tool's is a {@link SyncStateError}, never silently replaced: it may
 * be something else the user keeps under that name.
 *
 * @example
 * ```ts
 * const state = (await readSyncState('.sync-checkpoint.json')) ?? emptySyncState(baseUrl);
 * ```
 */
export async function readSyncState(path: string): Promise<SyncState | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    throw new SyncStateError(
      `${path} is not valid JSON: pass another --checkpoint, or delete it to sync everything again`,
    );
  }
  if (!isSyncState(state)) {
    throw new SyncStateError(
      `${path} is not a checkpoint file of inventory-sync (${SYNC_STATE_FORMAT}): pass another --checkpoint, or delete it to sync everything again`,
    );
  }
  return state;
}

// Checks the shape this tool writes; the receipts and the SDK's checkpoint are its own output.
function isSyncState(value: unknown): value is SyncState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    state['format'] === SYNC_STATE_FORMAT &&
    typeof state['baseUrl'] === 'string' &&
    (state['userId'] === null || typeof state['userId'] === 'number') &&
    (state['checkpoint'] === null || typeof state['checkpoint'] === 'object') &&
    Array.isArray(state['receipts'])
  );
}
