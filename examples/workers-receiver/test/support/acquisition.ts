import type { ReceiptCreate } from '@fflkit/sdk';

let serial = 0;

/**
 * A valid acquisition from a licensed wholesaler, with plainly fictitious data and a fresh serial
 * number.
 *
 * @example
 * ```ts
 * const receipt = await logbook.receipts.create(acquisition());
 * ```
 */
export function acquisition(): ReceiptCreate {
  serial += 1;
  return {
    book: 'Main',
    serial_number: `EXW${String(serial).padStart(7, '0')}`,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
  };
}
