import type { Receipt } from '@fflkit/sdk';
import { SyncStateError } from './sync-state-error';

/**
 * The account of the mirror once `receipt` joins it: `receipt.user_id`, which must be the
 * account the mirror already holds, if any. Receipts of two licensees in one bound book would
 * be a false record, so a token of another account is an error, not a merge.
 *
 * @example
 * ```ts
 * userId = assertSameAccount(userId, change.receipt);
 * ```
 */
export function assertSameAccount(userId: number | null, receipt: Receipt): number {
  if (userId !== null && receipt.user_id !== userId) {
    throw new SyncStateError(
      `the checkpoint file holds the receipts of account ${userId}, but the token is of account ${receipt.user_id}: pass another --checkpoint (and --out) for this account`,
    );
  }
  return receipt.user_id;
}
