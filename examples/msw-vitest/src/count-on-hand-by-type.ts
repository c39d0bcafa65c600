import type { BoundBook } from '@boundbook/sdk';

/**
 * Counts the firearms on hand per type (`Pistol`, `Rifle`, ...) across every page of the
 * inventory, for a shelf report. Types with none on hand are absent.
 *
 * @example
 * ```ts
 * await countOnHandByType(bb); // { Pistol: 12, Rifle: 4 }
 * ```
 */
export async function countOnHandByType(bb: BoundBook, pageSize = 200): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for await (const receipt of bb.inventory.iterate({ per_page: pageSize })) {
    counts[receipt.type] = (counts[receipt.type] ?? 0) + 1;
  }
  return counts;
}
