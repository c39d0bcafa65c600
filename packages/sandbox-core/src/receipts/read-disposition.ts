import type { Disposition, Receipt } from '@boundbook/types';
import Joi from 'joi';
import { pickFields } from '../http/pick-fields';
import type { AccountState } from '../state/account-state';
import { fieldLabel } from '../validation/field-label';
import { FieldErrors } from '../validation/field-errors';
import { amount, calendarDate, trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { ZIP_CODE_PATTERN } from '../validation/record-patterns';
import { STATE_CODES } from '../validation/state-codes';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { ADDRESS_FIELDS } from './receipt-fields';

const FIELDS = [
  'disposition_date',
  'disposed_to',
  'address',
  'city',
  'state',
  'zip',
  'sold_price',
  'nics_ccw',
  'form_4473_serial',
] as const;
const ERROR_ORDER = ['status', ...FIELDS];
const REQUIRED = new Set(['disposition_date', 'disposed_to']);
const SCHEMA = lazySchema(() => Joi.object({
  disposition_date: calendarDate().required(),
  disposed_to: trimmedString(255).required(),
  address: trimmedString(255),
  city: trimmedString(255),
  state: Joi.string().trim().valid(...STATE_CODES),
  zip: trimmedString(255).pattern(ZIP_CODE_PATTERN),
  sold_price: amount(),
  nics_ccw: trimmedString(50),
  form_4473_serial: trimmedString(255),
}));

/** A valid disposition, every field present (`null` where not given) but `created_at`. */
export type DispositionFields = Omit<Disposition, 'created_at'>;

/**
 * Validates a `POST /receipts/{id}/dispose` body against every rule: the receipt is on hand,
 * the dates, the recipient's address or a Form 4473 serial, and that serial unused in the
 * account. A `null` field counts as not given.
 *
 * @example
 * ```ts
 * const fields = readDisposition(body, receipt, account, '2025-04-02');
 * ```
 */
export function readDisposition(
  body: Record<string, unknown>,
  receipt: Receipt,
  account: AccountState,
  today: string,
): DispositionFields {
  const picked = pickFields(body, FIELDS);
  for (const field of FIELDS) if (picked[field] === null) delete picked[field];
  const errors = new FieldErrors();
  if (receipt.status === 'disposed') errors.add('status', 'The receipt has already been disposed.');
  const value = validateFields(SCHEMA, picked, errors, REQUIRED);
  const date = value['disposition_date'];
  if (typeof date === 'string' && date > today) {
    errors.add('disposition_date', 'The disposition date field must be a date before or equal to today.');
  } else if (typeof date === 'string' && date < receipt.receipt_date) {
    errors.add(
      'disposition_date',
      'The disposition date field must be a date after or equal to the receipt date.',
    );
  }
  const serial = value['form_4473_serial'];
  if (typeof serial === 'string' && account.form4473Serials.has(serial)) {
    errors.add('form_4473_serial', 'The form 4473 serial has already been taken.');
  }
  if (serial === undefined && !errors.has('form_4473_serial')) {
    for (const field of ADDRESS_FIELDS) {
      if (value[field] === undefined && !errors.has(field)) {
        errors.add(field, `The ${fieldLabel([field])} field is required when form 4473 serial is not present.`);
      }
    }
  }
  if (!errors.isEmpty) throw validationFailed(errors, ERROR_ORDER);
  return Object.fromEntries(FIELDS.map((field) => [field, value[field] ?? null])) as DispositionFields;
}
