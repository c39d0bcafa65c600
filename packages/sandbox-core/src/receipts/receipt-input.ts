import type { AccountType, Disposition, Receipt } from '@fflkit/types';
import Joi from 'joi';
import type { AccountState, BookState } from '../state/store';
import {
  FieldErrors,
  fieldLabel,
  lazySchema,
  pickFields,
  readJsonObject,
  type RequestBody,
  validateFields,
  validationFailed,
  LICENSE_NUMBER_PATTERN,
  ZIP_CODE_PATTERN,
  amount,
  calendarDate,
  stateCode,
  trimmedString,
} from '../support/input';
import { RECEIPT_FIELDS } from '../state/records';

// The input of the receipt operations: the fields of a receipt and of a disposition, their
// rules, and the rules across fields that 27 CFR 478.125(e) and 478.122 set. Every failing field
// is reported in one 422; a `null` field counts as not given.

// The request fields are those the stored receipt declares (state/records.ts).
export { RECEIPT_FIELDS };

/** A field of a receipt request. */
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** A field of a receipt that a PUT may change (every request field but `book`). */
export type EditableField = Exclude<ReceiptField, 'book'>;

/** The editable fields of a receipt with their values, `null` where there is none. */
export type ReceiptFields = Pick<Receipt, EditableField>;

const EDITABLE_FIELDS = RECEIPT_FIELDS.filter((field): field is EditableField => field !== 'book');

/** Fields that `POST /receipts` requires; on PUT they may be left out but not set to `null`. */
const REQUIRED_ON_CREATE: ReadonlySet<string> = new Set<ReceiptField>([
  'book',
  'serial_number',
  'manufacturer',
  'model',
  'type',
  'caliber',
  'receipt_date',
  'received_from',
]);

/** The address that stands in for a license number (27 CFR 478.125(e)). */
const ADDRESS_FIELDS = ['address', 'city', 'state', 'zip'] as const;

/** Strings of the receipt request are at most this long. */
const MAX = 255;

/**
 * The per-field rules of `POST /receipts`; `null` values are taken out before, and the rules
 * across fields (license or address, importer accounts, dates, book) are checked after.
 */
const CREATE_SCHEMA = lazySchema(() =>
  Joi.object({
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
    state: stateCode(),
    zip: trimmedString(MAX).pattern(ZIP_CODE_PATTERN),
  }),
);

/** The per-field rules of `PUT /receipts/{id}`: those of create, every field optional. */
const UPDATE_SCHEMA = lazySchema(() => CREATE_SCHEMA().fork([...REQUIRED_ON_CREATE], (schema) => schema.optional()));

/** A valid `POST /receipts` body. */
export interface ReceiptCreateInput {
  book: BookState;
  fields: ReceiptFields;
  /** The fields the request gave (present and not `null`), for the audit entry. */
  given: ReceiptField[];
}

/** Reads a `POST /receipts` body; `today` is the account's date, `YYYY-MM-DD`. */
export function readReceiptCreate(body: RequestBody, account: AccountState, today: string): ReceiptCreateInput {
  const picked = pickFields(readJsonObject(body, RECEIPT_FIELDS), RECEIPT_FIELDS);
  for (const field of RECEIPT_FIELDS) if (picked[field] === null) delete picked[field];
  const errors = new FieldErrors();
  const value = validateFields(CREATE_SCHEMA, picked, errors, REQUIRED_ON_CREATE);
  const name = value['book'];
  const book = typeof name === 'string' ? account.books.get(name) : undefined;
  if (typeof name === 'string' && book === undefined) errors.add('book', 'The selected book is invalid.');
  const fields = Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, value[field] ?? null])) as ReceiptFields;
  checkReceiptRules(fields, errors, {
    accountType: account.record.account_type,
    today,
    checkDate: true,
    dispositionDate: null,
  });
  if (!errors.isEmpty || book === undefined) throw validationFailed(errors, RECEIPT_FIELDS);
  return { book, fields, given: RECEIPT_FIELDS.filter((field) => Object.hasOwn(picked, field)) };
}

/**
 * Reads a `PUT /receipts/{id}` body and returns the fields it sets. An absent field keeps its
 * value; `null` clears an optional field and is 422 on a field required on create; `book` may
 * only repeat the current book; the merged receipt must pass every rule of create.
 */
export function readReceiptUpdate(
  body: RequestBody,
  receipt: Receipt,
  accountType: AccountType,
  today: string,
): Partial<ReceiptFields> {
  const picked = pickFields(readJsonObject(body, RECEIPT_FIELDS), RECEIPT_FIELDS);
  const errors = new FieldErrors();
  const cleared = new Set<string>();
  for (const field of RECEIPT_FIELDS) {
    if (picked[field] !== null) continue;
    delete picked[field];
    if (REQUIRED_ON_CREATE.has(field)) errors.add(field, `The ${fieldLabel([field])} field is required.`);
    else cleared.add(field);
  }
  const value = validateFields(UPDATE_SCHEMA, picked, errors, REQUIRED_ON_CREATE);
  if (value['book'] !== undefined && value['book'] !== receipt.book) {
    errors.add('book', 'The book field cannot be changed.');
  }
  const patch: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    if (cleared.has(field)) patch[field] = null;
    else if (value[field] !== undefined) patch[field] = value[field];
  }
  const merged = { ...receipt, ...patch } as ReceiptFields;
  checkReceiptRules(merged, errors, {
    accountType,
    today,
    checkDate: Object.hasOwn(patch, 'receipt_date'),
    dispositionDate: receipt.disposition?.disposition_date ?? null,
  });
  if (!errors.isEmpty) throw validationFailed(errors, RECEIPT_FIELDS);
  return patch as Partial<ReceiptFields>;
}

/** What the rules across fields need besides the receipt. */
interface ReceiptRuleContext {
  accountType: AccountType;
  /** Today on the account's clock, `YYYY-MM-DD`. */
  today: string;
  /** Whether `receipt_date` was given in this request, so it is checked against today. */
  checkDate: boolean;
  /** The disposition date of a disposed receipt, which `receipt_date` may not pass. */
  dispositionDate: string | null;
}

/**
 * The rules of a receipt across its fields, checked on the whole record (the new one on
 * create, the merged one on PUT). A field that already failed its own rule is not reported
 * again.
 */
function checkReceiptRules(fields: ReceiptFields, errors: FieldErrors, context: ReceiptRuleContext): void {
  if (context.accountType === 'importer') {
    for (const field of ['importer', 'country_of_origin'] as const) {
      const value = fields[field];
      if ((value === null || value === '') && !errors.has(field)) {
        errors.add(field, `The ${fieldLabel([field])} field is required for importer accounts.`);
      }
    }
  }
  if (!errors.has('receipt_date')) {
    if (context.checkDate && fields.receipt_date > context.today) {
      errors.add('receipt_date', 'The receipt date field must be a date before or equal to today.');
    } else if (context.dispositionDate !== null && fields.receipt_date > context.dispositionDate) {
      errors.add('receipt_date', 'The receipt date field must be a date before or equal to the disposition date.');
    }
  }
  if (fields.ffl_license === null && !errors.has('ffl_license')) {
    for (const field of ADDRESS_FIELDS) {
      if (fields[field] === null && !errors.has(field)) {
        errors.add(field, `The ${fieldLabel([field])} field is required when ffl license is not present.`);
      }
    }
  }
}

export const DISPOSITION_FIELDS = [
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
const DISPOSITION_REQUIRED = new Set(['disposition_date', 'disposed_to']);
const DISPOSITION_SCHEMA = lazySchema(() =>
  Joi.object({
    disposition_date: calendarDate().required(),
    disposed_to: trimmedString(MAX).required(),
    address: trimmedString(MAX),
    city: trimmedString(MAX),
    state: stateCode(),
    zip: trimmedString(MAX).pattern(ZIP_CODE_PATTERN),
    sold_price: amount(),
    nics_ccw: trimmedString(50),
    form_4473_serial: trimmedString(MAX),
  }),
);

/** A valid disposition, every field present (`null` where not given) but `created_at`. */
export type DispositionFields = Omit<Disposition, 'created_at'>;

/**
 * Reads a `POST /receipts/{id}/dispose` body against every rule: the receipt is on hand, the
 * dates, the recipient's address or a Form 4473 serial, and that serial unused in the account.
 */
export function readDisposition(
  body: RequestBody,
  receipt: Receipt,
  account: AccountState,
  today: string,
): DispositionFields {
  const picked = pickFields(readJsonObject(body, DISPOSITION_FIELDS), DISPOSITION_FIELDS);
  for (const field of DISPOSITION_FIELDS) if (picked[field] === null) delete picked[field];
  const errors = new FieldErrors();
  if (receipt.status === 'disposed') errors.add('status', 'The receipt has already been disposed.');
  const value = validateFields(DISPOSITION_SCHEMA, picked, errors, DISPOSITION_REQUIRED);
  const date = value['disposition_date'];
  if (typeof date === 'string' && date > today) {
    errors.add('disposition_date', 'The disposition date field must be a date before or equal to today.');
  } else if (typeof date === 'string' && date < receipt.receipt_date) {
    errors.add('disposition_date', 'The disposition date field must be a date after or equal to the receipt date.');
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
  if (!errors.isEmpty) throw validationFailed(errors, ['status', ...DISPOSITION_FIELDS]);
  return Object.fromEntries(DISPOSITION_FIELDS.map((field) => [field, value[field] ?? null])) as DispositionFields;
}
