import type { Receipt } from '@boundbook/types';

/**
 * Fields of `POST /receipts` and `PUT /receipts/{id}`, in the contract's order, which is also
 * the order of the fields in a 422's `errors`.
 *
 * @example
 * ```ts
 * pickFields(body, RECEIPT_FIELDS);
 * ```
 */
export const RECEIPT_FIELDS = [
  'book',
  'serial_number',
  'manufacturer',
  'importer',
  'country_of_origin',
  'model',
  'type',
  'caliber',
  'receipt_date',
  'purchase_amount',
  'received_from',
  'ffl_license',
  'address',
  'city',
  'state',
  'zip',
] as const;

/** A field of a receipt request. */
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** A field of a receipt that a PUT may change (every request field but `book`). */
export type EditableField = Exclude<ReceiptField, 'book'>;

/** The editable fields of a receipt with their values, `null` where there is none. */
export type ReceiptFields = Pick<Receipt, EditableField>;

/**
 * The editable fields, in order.
 *
 * @example
 * ```ts
 * EDITABLE_FIELDS.includes('book'); // false
 * ```
 */
export const EDITABLE_FIELDS = RECEIPT_FIELDS.filter(
  (field): field is EditableField => field !== 'book',
);

/**
 * Fields that `POST /receipts` requires; on PUT they may be left out but not set to `null`.
 *
 * @example
 * ```ts
 * REQUIRED_ON_CREATE.has('serial_number'); // true
 * ```
 */
export const REQUIRED_ON_CREATE: ReadonlySet<string> = new Set<ReceiptField>([
  'book',
  'serial_number',
  'manufacturer',
  'model',
  'type',
  'caliber',
  'receipt_date',
  'received_from',
]);

/**
 * The address that stands in for a license number (27 CFR 478.125(e)).
 *
 * @example
 * ```ts
 * ADDRESS_FIELDS; // ['address', 'city', 'state', 'zip']
 * ```
 */
export const ADDRESS_FIELDS = ['address', 'city', 'state', 'zip'] as const;
