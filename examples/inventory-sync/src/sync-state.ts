import type { Receipt, SyncCheckpoint } from '@fflkit/sdk';

/** The value of {@link SyncState.format}: what the file is and which layout it has. */
export const SYNC_STATE_FORMAT = 'fflkit-inventory-sync/1';

/**
 * What the checkpoint file holds: the SDK's checkpoint and the local mirror it belongs to, in
 * one file, so that both are replaced by one rename and can never disagree.
 *
 * @example
 * ```ts
 * const state: SyncState = { format: SYNC_STATE_FORMAT, baseUrl, userId: null, checkpoint: null, receipts: [] };
 * ```
 */
export interface SyncState {
  readonly format: typeof SYNC_STATE_FORMAT;
  /** The service the mirror was pulled from; another one's changes must not be mixed in. */
  readonly baseUrl: string;
  /** The account (`user_id`) whose receipts the mirror holds; `null` until one is pulled. */
  readonly userId: number | null;
  /** Where the next sync starts, as `receipts.changesSince()` gave it; `null` for everything. */
  readonly checkpoint: SyncCheckpoint | null;
  /** The mirror: every receipt pulled and not deleted since, ordered by id. */
  readonly receipts: readonly Receipt[];
}

/**
 * The state of a sync that has pulled nothing yet.
 *
 * @example
 * ```ts
 * const state = (await readSyncState(path)) ?? emptySyncState('http://127.0.0.1:4010/rest/v1');
 * ```
 */
export function emptySyncState(baseUrl: string): SyncState {
  return { format: SYNC_STATE_FORMAT, baseUrl, userId: null, checkpoint: null, receipts: [] };
}
