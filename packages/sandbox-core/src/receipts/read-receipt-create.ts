import type { BookState } from '../books/book-state';
import { pickFields } from '../http/pick-fields';
import type { AccountState } from '../state/account-state';
import { FieldErrors } from '../validation/field-errors';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { checkReceiptRules } from './check-receipt-rules';
import {
  EDITABLE_FIELDS,
  RECEIPT_FIELDS,
  REQUIRED_ON_CREATE,
  type ReceiptField,
  type ReceiptFields,
} from './receipt-fields';
import { RECEIPT_CREATE_SCHEMA } from './receipt-schemas';

/** A valid `POST /receipts` body. */
export interface ReceiptCreateInput {
  book: BookState;
  fields: ReceiptFields;
  /** The fields the request gave (present and not `null`), for the audit entry. */
  given: ReceiptField[];
}

/**
 * Validates a `POST /receipts` body against every rule, reporting every failing field in one
 * 422. A `null` field counts as not given.
 *
 * @example
 * ```ts
 * const input = readReceiptCreate(body, account, '2025-03-14');
 * ```
 */
export function readReceiptCreate(
  body: Record<string, unknown>,
  account: AccountState,
  today: string,
): ReceiptCreateInput {
  const picked = pickFields(body, RECEIPT_FIELDS);
  for (const field of RECEIPT_FIELDS) if (picked[field] === null) delete picked[field];
  const errors = new FieldErrors();
  const value = validateFields(RECEIPT_CREATE_SCHEMA, picked, errors, REQUIRED_ON_CREATE);
  const name = value['book'];
  const book = typeof name === 'string' ? account.books.get(name) : undefined;
  if (typeof name === 'string' && book === undefined) {
    errors.add('book', 'The selected book is invalid.');
  }
  const fields = Object.fromEntries(
    EDITABLE_FIELDS.map((field) => [field, value[field] ?? null]),
  ) as ReceiptFields;
  checkReceiptRules(fields, errors, {
    accountType: account.record.account_type,
    today,
    checkDate: true,
    dispositionDate: null,
  });
  if (!errors.isEmpty || book === undefined) throw validationFailed(errors, RECEIPT_FIELDS);
  return { book, fields, given: RECEIPT_FIELDS.filter((field) => Object.hasOwn(picked, field)) };
}
