import type { ReceiptCreate } from '@fflkit/sdk';

let serial = 0;

/**
 * A valid acquisition from a licensed wholesaler, with plainly fictitious data and a fresh serial
 * number.
 *
 * @example
 * ```ts
 * const receipt = await logbook.receipts.create(acquisition({ model: 'EX-45 Full Size' }));
 * ```
 */
export function acquisition(overrides: Partial<ReceiptCreate> = {}): ReceiptCreate {
  serial += 1;
  return {
    book: 'Main',
    serial_number: `EXA${String(serial).padStart(7, '0')}`,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    purchase_amount: 389.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}
