import { NotFoundError, type Receipt, type RequestOptions } from '@fflkit/sdk';
import { assertSameAccount } from './assert-same-account';
import type { SyncProgress } from './sync-progress';
import type { SyncSource } from './sync-source';

// The largest page the service serves (interface document, section 8).
const PER_PAGE = 200;

/**
 * The ids of mirrored receipts the service has soft-deleted since. `changesSince()` cannot tell:
 * a deleted receipt just leaves every list. So the mirror is compared with the service's count
 * (one request); only when the mirror holds more receipts than the service does are the
 * receipts listed to find which are gone, and each of those is confirmed by a 404 from
 * `GET /receipts/{id}`, since a deletion during the listing shifts the pages and can hide a
 * receipt that still exists.
 *
 * A receipt deleted while another is created after the changes were pulled leaves the counts
 * equal; the next sync pulls the new one and then finds the deletion.
 *
 * @example
 * ```ts
 * const deleted = await findDeletions(logbook.receipts, mirror, state.userId, progress);
 * ```
 */
export async function findDeletions(
  receipts: Pick<SyncSource, 'list' | 'iterate' | 'get'>,
  mirror: ReadonlyMap<number, Receipt>,
  userId: number | null,
  progress: SyncProgress,
  options: RequestOptions = {},
): Promise<number[]> {
  const { meta } = await receipts.list({ per_page: 1 }, options);
  if (mirror.size <= meta.total) return [];

  const listed = new Set<number>();
  progress.begin('checking for deletions', meta.total);
  try {
    for await (const receipt of receipts.iterate({ per_page: PER_PAGE }, options)) {
      assertSameAccount(userId, receipt);
      listed.add(receipt.id);
      progress.advance();
    }
  } finally {
    progress.end();
  }

  const deleted: number[] = [];
  for (const id of mirror.keys()) {
    if (!listed.has(id) && (await isDeleted(receipts, id, options))) deleted.push(id);
  }
  return deleted;
}

async function isDeleted(receipts: Pick<SyncSource, 'get'>, id: number, options: RequestOptions): Promise<boolean> {
  try {
    await receipts.get(id, options);
    return false;
  } catch (error) {
    if (error instanceof NotFoundError) return true;
    throw error;
  }
}
