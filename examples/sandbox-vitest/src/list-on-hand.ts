import type { LogbookClient } from '@fflkit/sdk';

/** A firearm in the store's inventory, as the shelf labels show it. */
export interface OnHandFirearm {
  readonly serialNumber: string;
  readonly description: string;
  readonly record: number;
}

/**
 * Every firearm on hand, oldest record first, read page after page: the service pages
 * `GET /inventory` at most 200 to a page.
 *
 * @example
 * ```ts
 * for (const firearm of await listOnHand(logbook)) console.log(firearm.record, firearm.description);
 * ```
 */
export async function listOnHand(logbook: LogbookClient, pageSize = 200): Promise<OnHandFirearm[]> {
  const firearms: OnHandFirearm[] = [];
  for await (const receipt of logbook.inventory.iterate({ per_page: pageSize })) {
    firearms.push({
      serialNumber: receipt.serial_number,
      description: `${receipt.manufacturer} ${receipt.model}, ${receipt.caliber} ${receipt.type.toLowerCase()}`,
      record: receipt.record,
    });
  }
  return firearms;
}
