import { SEARCH_FIELDS, type Receipt } from '@boundbook/types';
import { readPageParams } from '../pagination/page-params';
import { paginate } from '../pagination/paginate';
import { QueryReader } from '../query/query-reader';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { validationFailed } from '../validation/validation-failed';
import { substringMatcher } from './substring-matcher';

const PARAMS = ['q', 'field', 'page', 'per_page'];

/**
 * `GET /search`: a page of the account's live receipts, of every status, where `q` is a
 * case-insensitive substring of `field` (or of any of the seven fields), by id ascending.
 *
 * @example
 * ```ts
 * // GET /rest/v1/search?q=exa00&field=serial_number
 * searchReceipts(context).body; // { data: [...], links: {...}, meta: {...} }
 * ```
 */
export const searchReceipts: AccountOperation = ({ request, account }) => {
  const errors = new FieldErrors();
  const reader = new QueryReader(request.query, errors);
  const q = reader.text('q', 100, true);
  const field = reader.oneOf('field', SEARCH_FIELDS);
  const pageParams = readPageParams(reader);
  if (!errors.isEmpty || q === undefined) throw validationFailed(errors, PARAMS);
  const fields = field === undefined ? SEARCH_FIELDS : [field];
  const contains = substringMatcher(q);
  const matches: Receipt[] = [];
  for (const receipt of account.index.all) {
    if (fields.some((name) => contains(receipt[name]))) matches.push(receipt);
  }
  return { status: 200, body: paginate(matches, pageParams, request) };
};
