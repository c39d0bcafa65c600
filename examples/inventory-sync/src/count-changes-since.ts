import type { RequestOptions, SyncCheckpoint } from '@fflkit/sdk';
import type { SyncSource } from './sync-source';

/**
 * At most how many receipts `changesSince(checkpoint)` will yield, for the progress report: one
 * request for a one-item page of the query the SDK starts with, whose `meta.total` counts them.
 * That query reaches one second back, so it also counts receipts the checkpoint has seen, which
 * `changesSince()` skips unless they changed; and the service changes meanwhile. An estimate.
 *
 * @example
 * ```ts
 * progress.begin('pulling changes', await countChangesSince(logbook.receipts, state.checkpoint));
 * ```
 */
export async function countChangesSince(
  receipts: Pick<SyncSource, 'list'>,
  checkpoint: SyncCheckpoint | null,
  options: RequestOptions = {},
): Promise<number> {
  const after = checkpoint?.after ?? null;
  // changesSince() asks for `since` one second before `after`, since timestamps are whole seconds.
  const since = after === null ? undefined : `${new Date(Date.parse(after) - 1000).toISOString().slice(0, 19)}Z`;
  const page = await receipts.list({ per_page: 1, ...(since !== undefined && { since }) }, options);
  return page.meta.total;
}
