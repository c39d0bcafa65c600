import type { LogbookClient } from '@fflkit/sdk';

/**
 * Counts the firearms on hand per type (`Pistol`, `Rifle`, ...) across every page of the
 * inventory, for a shelf report. Types with none on hand are absent.
 *
 * @example
 * ```ts
 * await countOnHandByType(logbook); // { Pistol: 12, Rifle: 4 }
 * ```
 */
export async function countOnHandByType(logbook: LogbookClient, pageSize = 200): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for await (const receipt of logbook.inventory.iterate({ per_page: pageSize })) {
    counts[receipt.type] = (counts[receipt.type] ?? 0) + 1;
  }
  return counts;
}
