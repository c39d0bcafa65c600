import { RECEIPT_STATUSES, type Receipt } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import { readPageParams } from '../pagination/page-params';
import { paginate } from '../pagination/paginate';
import { QueryReader } from '../query/query-reader';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { validationFailed } from '../validation/validation-failed';
import { selectReceipts } from './select-receipts';
import { substringMatcher } from './substring-matcher';

const PARAMS = ['book', 'status', 'serial_number', 'manufacturer', 'since', 'page', 'per_page'];

/**
 * `GET /receipts`: a page of the account's live receipts by id ascending; every filter given
 * must match. `serial_number` and `manufacturer` match case-insensitive substrings, `since`
 * keeps receipts updated strictly after it.
 *
 * @example
 * ```ts
 * // GET /rest/v1/receipts?status=on_hand&per_page=50
 * listReceipts(context).body; // { data: [...], links: {...}, meta: {...} }
 * ```
 */
export const listReceipts: AccountOperation = ({ request, account }) => {
  const errors = new FieldErrors();
  const reader = new QueryReader(request.query, errors);
  const book = reader.text('book', 255);
  const status = reader.oneOf('status', RECEIPT_STATUSES);
  const serial = reader.text('serial_number', 255);
  const manufacturer = reader.text('manufacturer', 255);
  const since = reader.dateTime('since');
  const pageParams = readPageParams(reader);
  if (!errors.isEmpty) throw validationFailed(errors, PARAMS);
  const receipts = selectReceipts(account, book, status);
  if (serial === undefined && manufacturer === undefined && since === undefined) {
    return { status: 200, body: paginate(receipts, pageParams, request) };
  }
  const serialMatches = serial === undefined ? undefined : substringMatcher(serial);
  const manufacturerMatches = manufacturer === undefined ? undefined : substringMatcher(manufacturer);
  // Stored timestamps are whole UTC seconds in one fixed-width form, so "updated strictly after
  // since" is a string comparison with since floored to its second.
  const after = since === undefined ? undefined : formatTimestamp(since);
  const matches: Receipt[] = [];
  for (const receipt of receipts) {
    if (serialMatches !== undefined && !serialMatches(receipt.serial_number)) continue;
    if (manufacturerMatches !== undefined && !manufacturerMatches(receipt.manufacturer)) continue;
    if (after !== undefined && receipt.updated_at <= after) continue;
    matches.push(receipt);
  }
  return { status: 200, body: paginate(matches, pageParams, request) };
};
