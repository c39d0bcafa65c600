import type { Receipt } from '@fflkit/sdk';

/** What {@link applyChanges} applies to the mirror. */
export interface MirrorChanges {
  /** Receipts created or changed since the last sync, as the service returns them now. */
  readonly upserted: readonly Receipt[];
  /** Ids of receipts the service has soft-deleted. */
  readonly deleted: readonly number[];
}

/** The mirror after {@link applyChanges}, and what changed in it. */
export interface AppliedChanges {
  readonly mirror: ReadonlyMap<number, Receipt>;
  /** Upserted receipts the mirror did not hold. */
  readonly created: number;
  /** Upserted receipts that replaced one the mirror held. */
  readonly updated: number;
  /** Deleted ids the mirror held; an id it did not hold changes nothing. */
  readonly deleted: number;
}

/**
 * Applies a batch of changes to the local mirror (receipts by id) and returns a new mirror,
 * leaving the given one as it was. Upserts come first and deletions last, so a receipt both
 * changed and deleted in one batch ends deleted, as it is in the service.
 *
 * @example
 * ```ts
 * const { mirror, created, updated, deleted } = applyChanges(previous, { upserted: [receipt], deleted: [1043] });
 * ```
 */
export function applyChanges(mirror: ReadonlyMap<number, Receipt>, changes: MirrorChanges): AppliedChanges {
  const next = new Map(mirror);
  let created = 0;
  let updated = 0;
  let deleted = 0;
  for (const receipt of changes.upserted) {
    if (next.has(receipt.id)) updated++;
    else created++;
    next.set(receipt.id, receipt);
  }
  for (const id of changes.deleted) {
    if (next.delete(id)) deleted++;
  }
  return { mirror: next, created, updated, deleted };
}
