import type { AccountType } from '@boundbook/types';
import { pickFields } from '../http/pick-fields';
import { FieldErrors } from '../validation/field-errors';
import { reportDuplicates } from '../validation/report-duplicates';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';
import { ACCOUNT_FIELDS, ACCOUNT_SCHEMA } from './account-schema';

/** A valid request for a new account, defaults applied. */
export interface AccountInput {
  account_type: AccountType;
  name: string;
  books: string[];
}

/**
 * Validates the body of `POST /_sandbox/accounts` (also the input of `core.createAccount()`):
 * throws the contract's 422 listing every failing field.
 *
 * @example
 * ```ts
 * const input = readAccountInput(readJsonObject(request.body));
 * ```
 */
export function readAccountInput(body: Record<string, unknown>): AccountInput {
  const errors = new FieldErrors();
  const value = validateFields(ACCOUNT_SCHEMA, pickFields(body, ACCOUNT_FIELDS), errors, new Set());
  const books = (value['books'] as string[] | undefined) ?? [];
  reportDuplicates('books', books, errors);
  books.forEach((name, position) => {
    if (name === 'Main') {
      errors.add(`books.${position}`, `The books.${position} field must not be Main, which every account has.`);
    }
  });
  if (!errors.isEmpty) throw validationFailed(errors, ACCOUNT_FIELDS);
  return {
    account_type: (value['account_type'] as AccountType | undefined) ?? 'dealer',
    name: (value['name'] as string | undefined) ?? 'Sandbox account',
    books,
  };
}
