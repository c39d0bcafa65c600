import type { Receipt, ReceiptChange, RequestOptions } from '@fflkit/sdk';
import { applyChanges } from './apply-changes';
import { assertSameAccount } from './assert-same-account';
import type { SyncSource } from './sync-source';
import type { SyncState } from './sync-state';

/** What {@link pullChanges} needs. */
export interface PullChangesInput {
  readonly receipts: Pick<SyncSource, 'changesSince'>;
  /** The state to start from; its checkpoint says where. */
  readonly state: SyncState;
  /** Saves a state; called after each batch is applied, with the checkpoint of its last change. */
  readonly save: (state: SyncState) => Promise<void>;
  /** How many changes to apply and save at a time. */
  readonly batchSize: number;
  /** Called once per change pulled, for the progress report. */
  readonly onChange?: () => void;
  readonly requestOptions?: RequestOptions;
}

/** The state after {@link pullChanges}, and what it pulled. */
export interface PulledChanges {
  readonly state: SyncState;
  readonly pulled: number;
  readonly created: number;
  readonly updated: number;
}

/**
 * Pulls the changes since the state's checkpoint with the SDK's `changesSince()` and applies
 * them to the mirror in batches. Each batch is saved with the checkpoint of its last change,
 * which resumes right after it, and only once the batch is applied: a run stopped at any point
 * (an error, Ctrl-C, a crash) resumes from the last saved batch and loses nothing. On an error
 * the changes pulled so far are applied and saved before it is thrown.
 *
 * @example
 * ```ts
 * const { state, pulled } = await pullChanges({ receipts: logbook.receipts, state, save, batchSize: 500 });
 * ```
 */
export async function pullChanges(input: PullChangesInput): Promise<PulledChanges> {
  let state = input.state;
  let mirror: ReadonlyMap<number, Receipt> = new Map(state.receipts.map((receipt) => [receipt.id, receipt]));
  let userId = state.userId;
  let pending: Receipt[] = [];
  let last: ReceiptChange | undefined;
  let pulled = 0;
  let created = 0;
  let updated = 0;

  const flush = async (): Promise<void> => {
    if (last === undefined || pending.length === 0) return;
    const applied = applyChanges(mirror, { upserted: pending, deleted: [] });
    mirror = applied.mirror;
    created += applied.created;
    updated += applied.updated;
    pending = [];
    state = {
      ...state,
      userId,
      checkpoint: last.checkpoint,
      receipts: [...mirror.values()].sort((a, b) => a.id - b.id),
    };
    await input.save(state);
  };

  try {
    for await (const change of input.receipts.changesSince(state.checkpoint, input.requestOptions)) {
      userId = assertSameAccount(userId, change.receipt);
      pending.push(change.receipt);
      last = change;
      pulled++;
      input.onChange?.();
      if (pending.length >= input.batchSize) await flush();
    }
  } catch (error) {
    // Keep what was pulled: every change so far carries a checkpoint that resumes after it. A
    // failure to save it must not hide the error that stopped the pull, which is thrown instead.
    await flush().catch(() => undefined);
    throw error;
  }
  await flush();
  return { state, pulled, created, updated };
}
