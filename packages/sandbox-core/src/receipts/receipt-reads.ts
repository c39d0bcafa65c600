import { RECEIPT_STATUSES, SEARCH_FIELDS, type Receipt } from '@boundbook/types';
import type { AccountOperation } from '../state/operation';
import type { AccountState } from '../state/store';
import { recordNotFound } from '../support/errors';
import { QueryReader, paginate } from '../support/request';
import { formatTimestamp } from '../support/time';

// The reads of receipts: one, the lists and the search. Unfiltered pages come straight from the
// indexes; filters scan the records of the narrowest index.

/** A live receipt of the account; 404 for an unknown, soft-deleted or other account's id. */
export function findReceipt(account: AccountState, id: number): Receipt {
  const receipt = account.receipts.get(id);
  if (receipt === undefined) throw recordNotFound();
  return receipt;
}

/** `GET /receipts/{id}`: one live receipt with its disposition, documents and E4473 data. */
export const getReceipt: AccountOperation = ({ account, id }) => ({
  status: 200,
  body: { data: findReceipt(account, id) },
});

const LIST_PARAMS = ['book', 'status', 'serial_number', 'manufacturer', 'since', 'page', 'per_page'];

/**
 * `GET /receipts`: a page of the account's live receipts by id ascending; every filter given
 * must match. `serial_number` and `manufacturer` match case-insensitive substrings, `since`
 * keeps receipts updated strictly after it.
 */
export const listReceipts: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const book = query.text('book', 255);
  const status = query.oneOf('status', RECEIPT_STATUSES);
  const serial = query.text('serial_number', 255);
  const manufacturer = query.text('manufacturer', 255);
  const since = query.dateTime('since');
  const page = query.page();
  query.assertValid(LIST_PARAMS);
  const receipts = selectReceipts(account, book, status);
  if (serial === undefined && manufacturer === undefined && since === undefined) {
    return { status: 200, body: paginate(receipts, page, request) };
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
  return { status: 200, body: paginate(matches, page, request) };
};

/** `GET /inventory`: a page of the account's on-hand receipts by id ascending, optionally of one book. */
export const listInventory: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const book = query.text('book', 255);
  const page = query.page();
  query.assertValid(['book', 'page', 'per_page']);
  return { status: 200, body: paginate(selectReceipts(account, book, 'on_hand'), page, request) };
};

/**
 * `GET /search`: a page of the account's live receipts, of every status, where `q` is a
 * case-insensitive substring of `field` (or of any of the seven fields), by id ascending.
 */
export const searchReceipts: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const q = query.required('q', 100);
  const field = query.oneOf('field', SEARCH_FIELDS);
  const page = query.page();
  query.assertValid(['q', 'field', 'page', 'per_page']);
  const fields = field === undefined ? SEARCH_FIELDS : [field];
  const contains = substringMatcher(q);
  const matches: Receipt[] = [];
  for (const receipt of account.index.all) {
    if (fields.some((name) => contains(receipt[name]))) matches.push(receipt);
  }
  return { status: 200, body: paginate(matches, page, request) };
};

/**
 * The account's live receipts by ascending id, narrowed by book name (a name no book has gives
 * none) and status, straight from the indexes.
 */
function selectReceipts(account: AccountState, book: string | undefined, status?: Receipt['status']): readonly Receipt[] {
  if (book === undefined) return account.index.list(status);
  return account.books.get(book)?.index.list(status) ?? [];
}

const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * A test for whether a text holds a term, ignoring case (Unicode simple case folding). One
 * compiled expression serves every record of a scan, without a lower-cased copy of each field.
 */
function substringMatcher(term: string): (text: string) => boolean {
  const pattern = new RegExp(term.replace(SPECIAL, '\\$&'), 'iu');
  return (text) => pattern.test(text);
}
