import { NICS_RESULTS, type E4473 } from '@boundbook/types';
import Joi from 'joi';
import { formatInstant } from '../clock/format-timestamp';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import { findReceipt } from '../receipts/find-receipt';
import { replaceReceipt } from '../receipts/replace-receipt';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { dateTime, trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { parseDateTime } from '../validation/parse-date-time';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';

const FIELDS = [
  'form_4473_serial',
  'transferee_name',
  'nics_transaction_number',
  'nics_result',
  'completed_at',
] as const;
const REQUIRED = new Set(['form_4473_serial', 'transferee_name', 'nics_result', 'completed_at']);
const SCHEMA = lazySchema(() => Joi.object({
  form_4473_serial: trimmedString(255).required(),
  transferee_name: trimmedString(255).required(),
  nics_transaction_number: trimmedString(50).allow(null),
  nics_result: Joi.string().trim().valid(...NICS_RESULTS).required(),
  completed_at: dateTime().required(),
}));

/**
 * `PUT /_sandbox/receipts/{id}/e4473`: sets or replaces a live receipt's E4473 data, like a
 * dashboard change: no audit entry, no event, `updated_at` unchanged. `completed_at` is kept
 * in UTC.
 *
 * @example
 * ```ts
 * putE4473(context).body; // { data: receipt } with receipt.e4473 set
 * ```
 */
export const putE4473: AccountOperation = ({ state, request, account, id }) => {
  const receipt = findReceipt(account, id);
  const errors = new FieldErrors();
  const value = validateFields(SCHEMA, pickFields(readJsonObject(request.body), FIELDS), errors, REQUIRED);
  if (!errors.isEmpty) throw validationFailed(errors, FIELDS);
  const e4473: E4473 = {
    form_4473_serial: value['form_4473_serial'] as string,
    transferee_name: value['transferee_name'] as string,
    nics_transaction_number: (value['nics_transaction_number'] as string | null | undefined) ?? null,
    nics_result: value['nics_result'] as E4473['nics_result'],
    completed_at: formatInstant(parseDateTime(value['completed_at'] as string) ?? 0),
  };
  const updated = replaceReceipt(state, account, receipt, { ...receipt, e4473 });
  state.version += 1;
  return { status: 200, body: { data: updated } };
};
