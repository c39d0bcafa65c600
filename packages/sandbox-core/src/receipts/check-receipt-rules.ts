import type { AccountType } from '@boundbook/types';
import { fieldLabel } from '../validation/field-label';
import type { FieldErrors } from '../validation/field-errors';
import { ADDRESS_FIELDS, type ReceiptFields } from './receipt-fields';

/** What the rules across fields need besides the receipt. */
export interface ReceiptRuleContext {
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
 *
 * @example
 * ```ts
 * checkReceiptRules(fields, errors, { accountType, today, checkDate: true, dispositionDate: null });
 * ```
 */
export function checkReceiptRules(
  fields: ReceiptFields,
  errors: FieldErrors,
  context: ReceiptRuleContext,
): void {
  if (context.accountType === 'importer') {
    for (const field of ['importer', 'country_of_origin'] as const) {
      const value = fields[field];
      if ((value === null || value === '') && !errors.has(field)) {
        errors.add(field, `The ${fieldLabel([field])} field is required for importer accounts.`);
      }
    }
  }
  if (!errors.has('receipt_date')) checkReceiptDate(fields.receipt_date, errors, context);
  if (fields.ffl_license === null && !errors.has('ffl_license')) {
    for (const field of ADDRESS_FIELDS) {
      if (fields[field] === null && !errors.has(field)) {
        errors.add(field, `The ${fieldLabel([field])} field is required when ffl license is not present.`);
      }
    }
  }
}

function checkReceiptDate(date: string, errors: FieldErrors, context: ReceiptRuleContext): void {
  if (context.checkDate && date > context.today) {
    errors.add('receipt_date', 'The receipt date field must be a date before or equal to today.');
  } else if (context.dispositionDate !== null && date > context.dispositionDate) {
    errors.add(
      'receipt_date',
      'The receipt date field must be a date before or equal to the disposition date.',
    );
  }
}
