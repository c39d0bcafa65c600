import { readPageParams } from '../pagination/page-params';
import { paginate } from '../pagination/paginate';
import { QueryReader } from '../query/query-reader';
import type { AccountOperation } from '../routing/operation';
import { FieldErrors } from '../validation/field-errors';
import { validationFailed } from '../validation/validation-failed';
import { selectReceipts } from './select-receipts';

const PARAMS = ['book', 'page', 'per_page'];

/**
 * `GET /inventory`: a page of the account's on-hand receipts by id ascending, optionally of one
 * book.
 *
 * @example
 * ```ts
 * // GET /rest/v1/inventory?book=Main
 * listInventory(context).body; // { data: [...], links: {...}, meta: {...} }
 * ```
 */
export const listInventory: AccountOperation = ({ request, account }) => {
  const errors = new FieldErrors();
  const reader = new QueryReader(request.query, errors);
  const book = reader.text('book', 255);
  const pageParams = readPageParams(reader);
  if (!errors.isEmpty) throw validationFailed(errors, PARAMS);
  return { status: 200, body: paginate(selectReceipts(account, book, 'on_hand'), pageParams, request) };
};
