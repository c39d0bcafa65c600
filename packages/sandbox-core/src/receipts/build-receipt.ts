import type { Receipt } from '@boundbook/types';
import { freezeReceipt } from './freeze-receipt';
import type { ReceiptFields } from './receipt-fields';

/** What a new receipt gets besides its request fields. */
export interface NewReceiptMeta {
  id: number;
  user_id: number;
  record: number;
  book: string;
  timestamp: string;
}

/**
 * A new on-hand receipt, its fields in the contract's order so that every answer and event
 * serialises the same way.
 *
 * @example
 * ```ts
 * const receipt = buildReceipt({ id, user_id, record, book: 'Main', timestamp }, input.fields);
 * ```
 */
export function buildReceipt(meta: NewReceiptMeta, fields: ReceiptFields): Receipt {
  return freezeReceipt({
    id: meta.id,
    user_id: meta.user_id,
    record: meta.record,
    book: meta.book,
    status: 'on_hand',
    serial_number: fields.serial_number,
    manufacturer: fields.manufacturer,
    importer: fields.importer,
    country_of_origin: fields.country_of_origin,
    model: fields.model,
    type: fields.type,
    caliber: fields.caliber,
    receipt_date: fields.receipt_date,
    purchase_amount: fields.purchase_amount,
    received_from: fields.received_from,
    ffl_license: fields.ffl_license,
    address: fields.address,
    city: fields.city,
    state: fields.state,
    zip: fields.zip,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: meta.timestamp,
    updated_at: meta.timestamp,
  });
}
