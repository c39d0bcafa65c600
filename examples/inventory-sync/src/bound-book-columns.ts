import type { Receipt } from '@fflkit/sdk';
import { formatAddress } from './format-address';

/** One column of the exported bound book: its header and how a receipt fills it. */
export interface BookColumn {
  readonly header: string;
  readonly value: (receipt: Receipt) => string;
}

/**
 * The columns of the exported bound book. First the columns 27 CFR 478.125(e) requires, in the
 * order of its format table: the description of the firearm, then the receipt, then the
 * disposition. The regulation's "name and address or name and license number" becomes one
 * column per part, so that neither alternative is lost. Then, kept apart from them as ATF
 * Ruling 2016-1 asks of extra columns, the book and the line number within it (the bound-book
 * order) and the country of origin that importers record (27 CFR 478.122). An open disposition
 * leaves its columns blank.
 *
 * @example
 * ```ts
 * const row = BOUND_BOOK_COLUMNS.map((column) => column.value(receipt));
 * ```
 */
export const BOUND_BOOK_COLUMNS: readonly BookColumn[] = [
  // Description of the firearm.
  { header: 'Manufacturer', value: (r) => r.manufacturer },
  { header: 'Importer', value: (r) => r.importer ?? '' },
  { header: 'Model', value: (r) => r.model },
  { header: 'Serial Number', value: (r) => r.serial_number },
  { header: 'Type', value: (r) => r.type },
  { header: 'Caliber or Gauge', value: (r) => r.caliber },
  // Receipt.
  { header: 'Date of Receipt', value: (r) => r.receipt_date },
  { header: 'Received From (Name)', value: (r) => r.received_from },
  { header: 'Received From (Address)', value: (r) => formatAddress(r) },
  { header: 'Received From (License No.)', value: (r) => r.ffl_license ?? '' },
  // Disposition.
  { header: 'Date of Disposition', value: (r) => r.disposition?.disposition_date ?? '' },
  { header: 'Disposed To (Name)', value: (r) => r.disposition?.disposed_to ?? '' },
  { header: 'Disposed To (Address)', value: (r) => (r.disposition ? formatAddress(r.disposition) : '') },
  { header: 'Disposed To (Form 4473 Serial No.)', value: (r) => r.disposition?.form_4473_serial ?? '' },
  // Extra columns, after the required ones.
  { header: 'Book', value: (r) => r.book },
  { header: 'Record No.', value: (r) => String(r.record) },
  { header: 'Country of Origin', value: (r) => r.country_of_origin ?? '' },
];

/**
 * The header row of the exported bound book, in column order.
 *
 * @example
 * ```ts
 * BOUND_BOOK_HEADER[0]; // 'Manufacturer'
 * ```
 */
export const BOUND_BOOK_HEADER: readonly string[] = BOUND_BOOK_COLUMNS.map((column) => column.header);
