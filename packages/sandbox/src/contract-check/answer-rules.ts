import { choiceId } from './choices';
import { describeValue, type ViolationFinding } from './violations';

// The contract's rules that a schema cannot state, checked on an answer that its schema
// accepts: the exact error messages, what a page holds for the query that asked for it (its
// size, its number, its order, its filters), the status of a receipt just made or disposed,
// the counts of a book, and timestamps in UTC.

/** A finding of these rules, placed in its exchange by the caller. */
export type AnswerFinding = Omit<ViolationFinding, 'method' | 'path' | 'status'>;

const CHOICES = {
  unauthenticated: choiceId('errors.unauthenticated'),
  notFound: choiceId('errors.not-found-message'),
  perPage: choiceId('pagination.per-page'),
  page: choiceId('pagination.page'),
  pastLastPage: choiceId('pagination.past-last-page'),
  order: choiceId('lists.order'),
  inventory: choiceId('inventory.on-hand'),
  listFilters: choiceId('receipts.list-filters'),
  book: choiceId('filters.book-exact'),
  serialNumber: choiceId('filters.serial-number-substring'),
  manufacturer: choiceId('filters.manufacturer-substring'),
  since: choiceId('filters.since'),
  search: choiceId('search.matching'),
  status: choiceId('receipts.status'),
  books: choiceId('books.fields'),
  webhookCreated: choiceId('webhooks.create-result'),
  utc: choiceId('conventions.utc-timestamps'),
};

/** `per_page` when a list is asked without it. */
const DEFAULT_PER_PAGE = 25;

const SEARCH_FIELDS = ['serial_number', 'manufacturer', 'model', 'type', 'caliber', 'received_from', 'book'] as const;

type Row = Record<string, unknown>;
interface ReceiptPage {
  data: Row[];
  meta: { current_page: number; last_page: number; per_page: number };
}

/** The findings of the rules for a valid answer of `operation`. */
export function answerFindings(
  operation: string,
  query: URLSearchParams,
  status: number,
  body: unknown,
): AnswerFinding[] {
  const findings: AnswerFinding[] = [];
  const message = (body as { message?: unknown } | undefined)?.message;
  if (status === 401 && message !== 'Unauthenticated.') {
    findings.push(finding('/body/message', CHOICES.unauthenticated, '"Unauthenticated."', message));
  }
  if (status === 404 && message !== 'Record not found.') {
    findings.push(finding('/body/message', CHOICES.notFound, '"Record not found."', message));
  }
  if (status >= 300) return findings;
  const data = (body as { data?: unknown } | undefined)?.data;
  switch (operation) {
    case 'listReceipts':
    case 'listInventory':
    case 'searchReceipts':
      pageFindings(operation, query, body as ReceiptPage, findings);
      break;
    case 'listBooks':
      for (const [index, book] of (data as Row[]).entries()) {
        const counted = (book['on_hand_count'] as number) + (book['disposed_count'] as number);
        if (book['record_count'] !== counted) {
          findings.push(
            finding(
              `/body/data/${index}/record_count`,
              CHOICES.books,
              `${counted}, on_hand_count plus disposed_count`,
              book['record_count'],
            ),
          );
        }
      }
      rowFindings(data as Row[], findings);
      break;
    case 'listWebhooks':
      rowFindings(data as Row[], findings);
      break;
    case 'createReceipt':
    case 'disposeReceipt': {
      const wanted = operation === 'createReceipt' ? 'on_hand' : 'disposed';
      const receipt = data as Row;
      if (receipt['status'] !== wanted)
        findings.push(finding('/body/data/status', CHOICES.status, JSON.stringify(wanted), receipt['status']));
      utcFindings(receipt, '/body/data', findings);
      break;
    }
    case 'getReceipt':
    case 'updateReceipt':
      utcFindings(data as Row, '/body/data', findings);
      break;
    case 'createWebhook':
      if ((data as Row)['enabled'] !== true)
        findings.push(finding('/body/data/enabled', CHOICES.webhookCreated, 'true', (data as Row)['enabled']));
      utcFindings(data as Row, '/body/data', findings);
      break;
  }
  return findings;
}

function pageFindings(operation: string, query: URLSearchParams, page: ReceiptPage, findings: AnswerFinding[]): void {
  const perPage = wholeNumber(query.get('per_page')) ?? DEFAULT_PER_PAGE;
  if (page.meta.per_page !== perPage) {
    findings.push(
      finding(
        '/body/meta/per_page',
        CHOICES.perPage,
        query.has('per_page') ? `${perPage}, as asked` : `${perPage}, the default`,
        page.meta.per_page,
      ),
    );
  }
  const pageNumber = wholeNumber(query.get('page')) ?? 1;
  if (page.meta.current_page !== pageNumber) {
    findings.push(finding('/body/meta/current_page', CHOICES.page, `${pageNumber}, as asked`, page.meta.current_page));
  }
  if (page.data.length > page.meta.per_page) {
    findings.push(finding('/body/data', CHOICES.perPage, `at most ${page.meta.per_page} receipts`, page.data));
  }
  if (page.meta.current_page > page.meta.last_page && page.data.length > 0) {
    findings.push(finding('/body/data', CHOICES.pastLastPage, 'an empty list past the last page', page.data));
  }
  rowFindings(page.data, findings);
  const rules = filterRules(operation, query);
  for (const [index, receipt] of page.data.entries()) {
    for (const rule of rules) {
      if (!rule.keeps(receipt)) {
        findings.push(finding(`/body/data/${index}/${rule.field}`, rule.choice, rule.expected, receipt[rule.field]));
        break;
      }
    }
  }
}

interface FilterRule {
  readonly field: string;
  readonly choice: string;
  readonly expected: string;
  keeps(receipt: Row): boolean;
}

/** What every receipt of a page must satisfy, for the filters of the query. */
function filterRules(operation: string, query: URLSearchParams): FilterRule[] {
  const rules: FilterRule[] = [];
  const text = (name: string): string | undefined => query.get(name)?.trim() || undefined;
  const holds = (field: string, term: string) => (receipt: Row) =>
    typeof receipt[field] === 'string' && (receipt[field] as string).toLowerCase().includes(term.toLowerCase());
  if (operation === 'listInventory') {
    rules.push({
      field: 'status',
      choice: CHOICES.inventory,
      expected: '"on_hand"',
      keeps: (r) => r['status'] === 'on_hand',
    });
  }
  const book = text('book');
  if (book !== undefined && operation !== 'searchReceipts') {
    rules.push({
      field: 'book',
      choice: CHOICES.book,
      expected: JSON.stringify(book),
      keeps: (r) => r['book'] === book,
    });
  }
  if (operation === 'listReceipts') {
    const status = text('status');
    if (status !== undefined) {
      rules.push({
        field: 'status',
        choice: CHOICES.listFilters,
        expected: JSON.stringify(status),
        keeps: (r) => r['status'] === status,
      });
    }
    for (const [name, choice] of [
      ['serial_number', CHOICES.serialNumber],
      ['manufacturer', CHOICES.manufacturer],
    ] as const) {
      const term = text(name);
      if (term !== undefined)
        rules.push({
          field: name,
          choice,
          expected: `text holding ${JSON.stringify(term)}, in any case`,
          keeps: holds(name, term),
        });
    }
    const since = query.get('since');
    const after = since === null ? Number.NaN : Date.parse(since);
    if (!Number.isNaN(after)) {
      rules.push({
        field: 'updated_at',
        choice: CHOICES.since,
        expected: `a moment strictly after ${since}`,
        keeps: (r) => Date.parse(String(r['updated_at'])) > after,
      });
    }
  }
  const q = text('q');
  if (operation === 'searchReceipts' && q !== undefined) {
    const field = query.get('field');
    const fields = field !== null && (SEARCH_FIELDS as readonly string[]).includes(field) ? [field] : SEARCH_FIELDS;
    rules.push({
      field: fields.length === 1 ? fields[0]! : 'serial_number',
      choice: CHOICES.search,
      expected: `a receipt whose ${fields.length === 1 ? fields[0] : 'searched fields'} hold ${JSON.stringify(q)}, in any case`,
      keeps: (r) => fields.some((name) => holds(name, q)(r)),
    });
  }
  return rules;
}

/** Ids ascending, and timestamps in UTC, along a list. */
function rowFindings(rows: readonly Row[], findings: AnswerFinding[]): void {
  for (let index = 1; index < rows.length; index += 1) {
    if ((rows[index]!['id'] as number) <= (rows[index - 1]!['id'] as number)) {
      findings.push(
        finding(
          `/body/data/${index}/id`,
          CHOICES.order,
          `an id above ${String(rows[index - 1]!['id'])}`,
          rows[index]!['id'],
        ),
      );
      break;
    }
  }
  for (const [index, row] of rows.entries()) {
    if (utcFindings(row, `/body/data/${index}`, findings)) break;
  }
}

const UTC = /(?:Z|[+-]00:00)$/i;

/** Whether a timestamp of `row` is not in UTC (reported once). */
function utcFindings(row: Row, at: string, findings: AnswerFinding[]): boolean {
  for (const field of ['created_at', 'updated_at']) {
    const value = row[field];
    if (typeof value === 'string' && !UTC.test(value)) {
      findings.push(finding(`${at}/${field}`, CHOICES.utc, 'a date-time in UTC', value));
      return true;
    }
  }
  return false;
}

function wholeNumber(text: string | null): number | undefined {
  return text !== null && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
}

function finding(pointer: string, choice: string, expected: string, seen: unknown): AnswerFinding {
  return { pointer, choice, expected, seen: describeValue(seen) };
}
