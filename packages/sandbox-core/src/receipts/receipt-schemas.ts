import Joi from 'joi';
import { amount, calendarDate, trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { LICENSE_NUMBER_PATTERN, ZIP_CODE_PATTERN } from '../validation/record-patterns';
import { STATE_CODES } from '../validation/state-codes';
import { REQUIRED_ON_CREATE } from './receipt-fields';

/** Strings of the receipt request are at most this long. */
const MAX = 255;

/**
 * The per-field rules of `POST /receipts`; `null` values are taken out before, and the rules
 * across fields (license or address, importer accounts, dates, book) are checked after.
 *
 * @example
 * ```ts
 * validateFields(RECEIPT_CREATE_SCHEMA, input, errors, REQUIRED_ON_CREATE);
 * ```
 */
export const RECEIPT_CREATE_SCHEMA = lazySchema(() => Joi.object({
  book: trimmedString(MAX).required(),
  serial_number: trimmedString(MAX).required(),
  manufacturer: trimmedString(MAX).required(),
  importer: trimmedString(MAX).allow(''),
  country_of_origin: trimmedString(MAX).allow(''),
  model: trimmedString(MAX).required(),
  type: trimmedString(MAX).required(),
  caliber: trimmedString(MAX).required(),
  receipt_date: calendarDate().required(),
  purchase_amount: amount(),
  received_from: trimmedString(MAX).required(),
  ffl_license: trimmedString(MAX).pattern(LICENSE_NUMBER_PATTERN),
  address: trimmedString(MAX),
  city: trimmedString(MAX),
  state: Joi.string().trim().valid(...STATE_CODES),
  zip: trimmedString(MAX).pattern(ZIP_CODE_PATTERN),
}));

/**
 * The per-field rules of `PUT /receipts/{id}`: those of create, every field optional.
 *
 * @example
 * ```ts
 * validateFields(RECEIPT_UPDATE_SCHEMA, input, errors, REQUIRED_ON_CREATE);
 * ```
 */
export const RECEIPT_UPDATE_SCHEMA = lazySchema(() =>
  RECEIPT_CREATE_SCHEMA().fork([...REQUIRED_ON_CREATE], (schema) => schema.optional()),
);
