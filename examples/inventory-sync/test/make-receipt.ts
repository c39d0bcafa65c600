import type { Receipt } from '@fflkit/sdk';

type Disposition = NonNullable<Receipt['disposition']>;

/**
 * A receipt as the service returns it, with plainly fictitious values, overridden by `fields`.
 *
 * @example
 * ```ts
 * const receipt = makeReceipt({ id: 2, record: 2, serial_number: 'EXA0000002' });
 * ```
 */
export function makeReceipt(fields: Partial<Receipt> = {}): Receipt {
  return {
    id: 1,
    user_id: 7,
    record: 1,
    book: 'Main',
    status: 'on_hand',
    serial_number: 'EXA0000001',
    manufacturer: 'Example Arms Co.',
    importer: '',
    country_of_origin: null,
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    purchase_amount: 310.5,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    address: null,
    city: null,
    state: null,
    zip: null,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: '2025-03-14T15:04:05Z',
    updated_at: '2025-03-14T15:04:05Z',
    ...fields,
  };
}

/**
 * A disposition as the service records it, overridden by `fields`.
 *
 * @example
 * ```ts
 * const receipt = makeReceipt({ status: 'disposed', disposition: makeDisposition({ form_4473_serial: '2025-000123' }) });
 * ```
 */
export function makeDisposition(fields: Partial<Disposition> = {}): Disposition {
  return {
    disposition_date: '2025-04-02',
    disposed_to: 'John Q. Example',
    address: '12 Sample Street',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    sold_price: 499.99,
    nics_ccw: null,
    form_4473_serial: null,
    created_at: '2025-04-02T10:00:00Z',
    ...fields,
  };
}
