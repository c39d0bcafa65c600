import type { LogbookClient, ReceiptCreate } from '@fflkit/sdk';
import type { IncomingFirearm } from './incoming-firearm';

/** Where the acquisition was recorded. */
export interface RecordedAcquisition {
  readonly receiptId: number;
  readonly book: string;
  /** Line number within the book, as an ATF inspector reads it. */
  readonly record: number;
}

/** The receipt of `firearm`: the store's names mapped to the service's fields. */
function toReceipt(firearm: IncomingFirearm, book: string): ReceiptCreate {
  const { from } = firearm;
  return {
    book,
    serial_number: firearm.serialNumber,
    manufacturer: firearm.make,
    model: firearm.model,
    type: firearm.kind,
    caliber: firearm.caliber,
    receipt_date: firearm.receivedOn,
    purchase_amount: firearm.costCents / 100,
    received_from: from.name,
    // 27 CFR 478.125(e): a licensee is named by license number, anyone else by address.
    ...('fflNumber' in from
      ? { ffl_license: from.fflNumber }
      : { address: from.street, city: from.city, state: from.state, zip: from.zip }),
  };
}

/**
 * Records a firearm the store took in as an acquisition in its bound book. The service checks
 * every field; what it refuses comes back as the SDK's `ValidationError`, whose `errors` name
 * the service's fields, for the caller to show at the counter.
 *
 * @example
 * ```ts
 * const { record } = await receiveFirearm(logbook, firearm); // record 1042 of the book Main
 * ```
 */
export async function receiveFirearm(
  logbook: LogbookClient,
  firearm: IncomingFirearm,
  book = 'Main',
): Promise<RecordedAcquisition> {
  const receipt = await logbook.receipts.create(toReceipt(firearm, book));
  return { receiptId: receipt.id, book: receipt.book, record: receipt.record };
}
