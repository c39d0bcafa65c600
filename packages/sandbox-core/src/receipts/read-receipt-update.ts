import type { AccountType, Receipt } from '@boundbook/types';
import { pickFields } from '../http/pick-fields';
import { fieldLabel } from '../validation/field-label';
import { FieldErrors } from '../validation/field-errors';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { checkReceiptRules } from './check-receipt-rules';
import {
  EDITABLE_FIELDS,
  RECEIPT_FIELDS,
  REQUIRED_ON_CREATE,
  type ReceiptFields,
} from './receipt-fields';
import { RECEIPT_UPDATE_SCHEMA } from './receipt-schemas';

/**
 * Validates a `PUT /receipts/{id}` body and returns the fields it sets. An absent field keeps
 * its value; `null` clears an optional field and is 422 on a field required on create; `book`
 * may only repeat the current book; the merged receipt must pass every rule of create.
 *
 * @example
 * ```ts
 * const patch = readReceiptUpdate(body, receipt, 'dealer', '2025-03-16');
 * ```
 */
export function readReceiptUpdate(
  body: Record<string, unknown>,
  receipt: Receipt,
  accountType: AccountType,
  today: string,
): Partial<ReceiptFields> {
  const picked = pickFields(body, RECEIPT_FIELDS);
  const errors = new FieldErrors();
  const cleared = new Set<string>();
  for (const field of RECEIPT_FIELDS) {
    if (picked[field] !== null) continue;
    delete picked[field];
    if (REQUIRED_ON_CREATE.has(field)) errors.add(field, `The ${fieldLabel([field])} field is required.`);
    else cleared.add(field);
  }
  const value = validateFields(RECEIPT_UPDATE_SCHEMA, picked, errors, REQUIRED_ON_CREATE);
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
