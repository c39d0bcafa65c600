import { type Page, RECEIPT_STATUSES, SEARCH_FIELDS, type Receipt, type SearchField } from '@fflkit/types';
import type { AccountOperation } from '../state/operation';
import type { AccountState } from '../state/store';
import { recordNotFound } from '../support/errors';
import { type PageParams, type PageRequest, QueryReader, pageOf, paginate } from '../support/request';
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
  const filter = readFilter(query, false);
  const page = query.page();
  query.assertValid(LIST_PARAMS);
  return { status: 200, body: matchingPage(account, filter, page, request) };
};

/** The most receipts a page of the control API's list holds: pages for people and exports. */
const BROWSE_MAX_PER_PAGE = 1000;

/**
 * `GET /_sandbox/receipts`: the filters of `GET /receipts` and those of `GET /search` (`q`,
 * `field`) together, pages of up to 1,000, not counted by the rate limit nor written to the
 * request log: what the console browses a book with.
 */
export const browseReceipts: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const filter = readFilter(query, true);
  const perPage = query.integer('per_page', 1, BROWSE_MAX_PER_PAGE);
  const page = { page: query.integer('page', 1, Number.MAX_SAFE_INTEGER) ?? 1, perPage: perPage ?? 50 };
  query.assertValid([...LIST_PARAMS, 'q', 'field']);
  return { status: 200, body: matchingPage(account, filter, page, request) };
};

/**
 * `GET /_sandbox/receipts/export`: the receipts the filters of `GET /_sandbox/receipts` select,
 * as CSV in bound-book order (book, then record number), in the column order of 27 CFR
 * 478.125(e) with the extra columns last (ATF Ruling 2016-1).
 */
export const exportReceipts: AccountOperation = ({ request, account }) => {
  const query = new QueryReader(request.query);
  const filter = readFilter(query, true);
  query.assertValid([...LIST_PARAMS.slice(0, 5), 'q', 'field']);
  const matches = matcherOf(filter);
  const receipts = selectReceipts(account, filter.book, filter.status)
    .filter((receipt) => matches?.(receipt) ?? true)
    .sort((a, b) => (a.book === b.book ? a.record - b.record : a.book < b.book ? -1 : 1));
  const lines = [BOUND_BOOK_COLUMNS.map(([header]) => csvField(header)).join(',')];
  for (const receipt of receipts) lines.push(BOUND_BOOK_COLUMNS.map(([, value]) => csvField(value(receipt))).join(','));
  const name = filter.book === undefined ? 'bound-book' : `bound-book-${filter.book.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  return {
    status: 200,
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.csv"` },
    body: `${lines.join('\r\n')}\r\n`,
  };
};

/** What a list keeps: every filter given must match. */
interface ReceiptFilter {
  readonly book?: string | undefined;
  readonly status?: Receipt['status'] | undefined;
  readonly serial?: string | undefined;
  readonly manufacturer?: string | undefined;
  readonly since?: number | undefined;
  /** The search of `GET /search`: a term, in one field or in any of the seven. */
  readonly search?: { readonly term: string; readonly fields: readonly SearchField[] } | undefined;
}

function readFilter(query: QueryReader, withSearch: boolean): ReceiptFilter {
  const filter = {
    book: query.text('book', 255),
    status: query.oneOf('status', RECEIPT_STATUSES),
    serial: query.text('serial_number', 255),
    manufacturer: query.text('manufacturer', 255),
    since: query.dateTime('since'),
  };
  if (!withSearch) return filter;
  const term = query.text('q', 100);
  const field = query.oneOf('field', SEARCH_FIELDS);
  return term === undefined
    ? filter
    : { ...filter, search: { term, fields: field === undefined ? SEARCH_FIELDS : [field] } };
}

/**
 * The page `page` of the account's live receipts that pass `filter`, by ascending id. A filtered
 * list is one scan of the narrowest index that counts the matches and keeps only the page's: a
 * query over a million receipts makes no list of its matches (the million benchmark's peak RSS).
 */
function matchingPage(
  account: AccountState,
  filter: ReceiptFilter,
  page: PageParams,
  request: PageRequest,
): Page<Receipt> {
  const receipts = selectReceipts(account, filter.book, filter.status);
  const matches = matcherOf(filter);
  return matches === undefined ? paginate(receipts, page, request) : scannedPage(receipts, matches, page, request);
}

/** The page of the receipts that pass `matches`, with their count, in one scan. */
function scannedPage(
  receipts: readonly Receipt[],
  matches: (receipt: Receipt) => boolean,
  page: PageParams,
  request: PageRequest,
): Page<Receipt> {
  const start = (page.page - 1) * page.perPage;
  const end = start + page.perPage;
  const data: Receipt[] = [];
  let total = 0;
  for (const receipt of receipts) {
    if (!matches(receipt)) continue;
    if (total >= start && total < end) data.push(receipt);
    total += 1;
  }
  return pageOf(total, data, page, request);
}

/** The test of the filters beyond book and status (which the indexes answer); none without them. */
function matcherOf(filter: ReceiptFilter): ((receipt: Receipt) => boolean) | undefined {
  const { serial, manufacturer, since, search } = filter;
  if (serial === undefined && manufacturer === undefined && since === undefined && search === undefined)
    return undefined;
  const serialMatches = serial === undefined ? undefined : substringMatcher(serial);
  const manufacturerMatches = manufacturer === undefined ? undefined : substringMatcher(manufacturer);
  const searchMatches = search === undefined ? undefined : substringMatcher(search.term);
  // Stored timestamps are whole UTC seconds in one fixed-width form, so "updated strictly after
  // since" is a string comparison with since floored to its second.
  const after = since === undefined ? undefined : formatTimestamp(since);
  return (receipt) =>
    (serialMatches === undefined || serialMatches(receipt.serial_number)) &&
    (manufacturerMatches === undefined || manufacturerMatches(receipt.manufacturer)) &&
    (after === undefined || receipt.updated_at > after) &&
    (searchMatches === undefined || search!.fields.some((name) => searchMatches(receipt[name])));
}

/** The columns of a bound-book export: the heading and the value of each receipt. */
const BOUND_BOOK_COLUMNS: readonly (readonly [string, (receipt: Receipt) => string])[] = [
  // Description of the firearm.
  ['Manufacturer', (r) => r.manufacturer],
  ['Importer', (r) => r.importer ?? ''],
  ['Model', (r) => r.model],
  ['Serial Number', (r) => r.serial_number],
  ['Type', (r) => r.type],
  ['Caliber or Gauge', (r) => r.caliber],
  // Receipt.
  ['Date of Receipt', (r) => r.receipt_date],
  ['Received From (Name)', (r) => r.received_from],
  ['Received From (Address)', (r) => address(r)],
  ['Received From (License No.)', (r) => r.ffl_license ?? ''],
  // Disposition.
  ['Date of Disposition', (r) => r.disposition?.disposition_date ?? ''],
  ['Disposed To (Name)', (r) => r.disposition?.disposed_to ?? ''],
  ['Disposed To (Address)', (r) => (r.disposition === null ? '' : address(r.disposition))],
  ['Disposed To (Form 4473 Serial No.)', (r) => r.disposition?.form_4473_serial ?? ''],
  // Extra columns, after the required ones.
  ['Book', (r) => r.book],
  ['Record No.', (r) => String(r.record)],
  ['Country of Origin', (r) => r.country_of_origin ?? ''],
  ['Status', (r) => r.status],
];

function address(parts: Pick<Receipt, 'address' | 'city' | 'state' | 'zip'>): string {
  const stateAndZip = [parts.state, parts.zip].filter((part) => part !== null && part !== '').join(' ');
  return [parts.address, parts.city, stateAndZip].filter((part) => part !== null && part !== '').join(', ');
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

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
  const matches = (receipt: Receipt): boolean => fields.some((name) => contains(receipt[name]));
  return { status: 200, body: scannedPage(account.index.all, matches, page, request) };
};

/**
 * The account's live receipts by ascending id, narrowed by book name (a name no book has gives
 * none) and status, straight from the indexes.
 */
function selectReceipts(
  account: AccountState,
  book: string | undefined,
  status?: Receipt['status'],
): readonly Receipt[] {
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
