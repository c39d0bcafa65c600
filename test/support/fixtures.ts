import type { DispositionCreate, ReceiptCreate } from '@boundbook/types';

let serial = 0;

/** A valid acquisition from a licensee, with plainly fictitious data and a fresh serial number. */
export function receiptBody(overrides: Partial<ReceiptCreate> = {}): ReceiptCreate {
  serial += 1;
  return {
    book: 'Main',
    serial_number: `EXA-${String(serial).padStart(6, '0')}`,
    manufacturer: 'Example Arms Co.',
    model: 'Model 1',
    type: 'Pistol',
    caliber: '9mm',
    receipt_date: '2025-01-15',
    purchase_amount: 349.99,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}

/** A valid disposition to an unlicensed person, with the recipient's address. */
export function dispositionBody(overrides: Partial<DispositionCreate> = {}): DispositionCreate {
  return {
    disposition_date: '2025-02-01',
    disposed_to: 'Jordan Example',
    address: '100 Example Way',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    sold_price: 499.0,
    ...overrides,
  };
}
