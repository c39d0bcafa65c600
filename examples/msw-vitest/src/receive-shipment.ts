import { ValidationError, type LogbookClient, type Receipt, type ReceiptCreate } from '@fflkit/sdk';

/** One firearm of a distributor's shipment, as the receiving clerk scans it. */
export interface ShipmentItem {
  serialNumber: string;
  manufacturer: string;
  model: string;
  type: ReceiptCreate['type'];
  caliber: string;
}

/** A shipment from one licensee, received on one day. */
export interface Shipment {
  receivedOn: string;
  supplierName: string;
  supplierLicense: string;
  items: ShipmentItem[];
}

/** A firearm the service refused to record, with the fields it named and why. */
export interface RejectedItem {
  serialNumber: string;
  errors: Readonly<Record<string, string[]>>;
}

/** What became of a shipment: the acquisitions recorded and the firearms to fix and rescan. */
export interface ShipmentResult {
  recorded: Receipt[];
  rejected: RejectedItem[];
}

/**
 * Records each firearm of a shipment as an acquisition in the book `Main`. A firearm the service
 * refuses (422) is set aside with the service's reasons so that the clerk can correct it; any
 * other failure (a revoked token, the service down) stops the shipment and is thrown.
 *
 * @example
 * ```ts
 * const { recorded, rejected } = await receiveShipment(logbook, shipment);
 * ```
 */
export async function receiveShipment(logbook: LogbookClient, shipment: Shipment): Promise<ShipmentResult> {
  const result: ShipmentResult = { recorded: [], rejected: [] };
  for (const item of shipment.items) {
    try {
      result.recorded.push(
        await logbook.receipts.create({
          book: 'Main',
          serial_number: item.serialNumber,
          manufacturer: item.manufacturer,
          model: item.model,
          type: item.type,
          caliber: item.caliber,
          receipt_date: shipment.receivedOn,
          received_from: shipment.supplierName,
          ffl_license: shipment.supplierLicense,
        }),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      result.rejected.push({ serialNumber: item.serialNumber, errors: error.errors });
    }
  }
  return result;
}
