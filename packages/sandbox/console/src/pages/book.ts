import { SEARCH_FIELDS, type Book, type Receipt, type SandboxReceiptPage } from '@fflkit/types';
import { field, h, replace, scroller, select } from '../elements';
import { formatAddress, formatCount } from '../formats';
import { errorAlert, heading, type PageContext } from '../page';

// The bound book as an inspector reads it: one line per firearm, the columns of 27 CFR
// 478.125(e) in their order (the description of the firearm, its receipt, its disposition),
// paginated by the sandbox (GET /_sandbox/receipts), so a book of 100,000 receipts opens as fast
// as one of ten. The filters live in the page's address, so Back and a shared link keep them.

/** The query parameters of the book's address that filter it, in the order the form shows them. */
const FILTERS = ['book', 'status', 'serial_number', 'manufacturer', 'q', 'field'] as const;
const PAGE_SIZES = ['25', '50', '100', '200'] as const;
const DEFAULT_PAGE_SIZE = '50';

/** The address of the book as last shown, with its filters and page: where a receipt's page goes back to. */
let lastAddress = '#/book';

/** The address of the bound book as it was last shown, filters and page included. */
export function lastBookAddress(): string {
  return lastAddress;
}

/** Draws the bound book page into `view`. */
export async function showBook(view: HTMLElement, context: PageContext): Promise<void> {
  const { params } = context;
  lastAddress = location.hash.startsWith('#/book') ? location.hash : '#/book';
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (value) filters.set(name, value);
  }
  const perPage = PAGE_SIZES.find((size) => size === params.get('per_page')) ?? DEFAULT_PAGE_SIZE;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const results = h('div', { 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading the book...'));
  // The account's books, for the Book filter; without them the filter takes a typed name.
  const books = await context.api.call('get', '/_sandbox/books').then(
    (answer) => answer.data,
    () => undefined,
  );
  view.append(
    heading('Bound book'),
    h(
      'p',
      { class: 'lede' },
      'Acquisitions and dispositions of the account, as 27 CFR 478.125(e) orders their columns.',
    ),
    filterForm(filters, perPage, books, context),
    results,
  );

  let answer: SandboxReceiptPage;
  try {
    answer = await context.api.call('get', '/_sandbox/receipts', {
      query: Object.fromEntries(new URLSearchParams(withPage(filters, page, perPage))),
    });
  } catch (error) {
    replace(results, errorAlert(error));
    results.removeAttribute('aria-busy');
    return;
  }
  const { meta } = answer;
  const summary =
    meta.total === 0
      ? filters.size === 0
        ? 'The book is empty: receipts made through the API appear here.'
        : 'No receipt matches these filters.'
      : `Receipts ${formatCount(meta.from ?? 0)} to ${formatCount(meta.to ?? 0)} of ${formatCount(meta.total)}, page ${formatCount(meta.current_page)} of ${formatCount(meta.last_page)}.`;
  replace(
    results,
    h('p', { class: 'summary' }, summary),
    answer.data.length === 0 ? null : bookTable(answer.data),
    meta.last_page > 1 ? pager(filters, meta.current_page, meta.last_page, perPage) : null,
  );
  results.removeAttribute('aria-busy');
}

function withPage(filters: URLSearchParams, page: number, perPage: string): string {
  const query = new URLSearchParams(filters);
  query.set('page', String(page));
  query.set('per_page', perPage);
  return query.toString();
}

function filterForm(
  filters: URLSearchParams,
  perPage: string,
  books: readonly Book[] | undefined,
  context: PageContext,
): HTMLFormElement {
  const text = (name: string) =>
    h('input', { type: 'text', name, value: filters.get(name) ?? '', autocomplete: 'off' });
  const exportStatus = h('span', { class: 'hint', role: 'status' });
  const form = h(
    'form',
    {
      role: 'search',
      'aria-label': 'Filter the bound book',
      class: 'filters',
      onsubmit: (event: SubmitEvent) => {
        event.preventDefault();
        const query = new URLSearchParams();
        for (const [name, value] of new FormData(form)) {
          if (typeof value === 'string' && value.trim() !== '') query.set(name, value.trim());
        }
        context.go(`#/book?${query.toString()}`);
      },
    },
    h(
      'div',
      { class: 'grid' },
      books === undefined
        ? field('Book', text('book'), 'Its exact name, such as Main.')
        : field(
            'Book',
            select(
              'book',
              [
                ['', 'All books'],
                ...books.map((book) => [book.name, `${book.name} (${formatCount(book.record_count)})`] as const),
              ],
              filters.get('book') ?? '',
            ),
          ),
      field(
        'Status',
        select(
          'status',
          [
            ['', 'Any'],
            ['on_hand', 'On hand'],
            ['disposed', 'Disposed'],
          ],
          filters.get('status') ?? '',
        ),
      ),
      field('Serial number', text('serial_number'), 'Part of it is enough.'),
      field('Manufacturer', text('manufacturer'), 'Part of it is enough.'),
      field('Search', text('q'), 'Text to find in the field below.'),
      field(
        'In field',
        select(
          'field',
          [['', 'All seven fields'], ...SEARCH_FIELDS.map((name) => [name, name.replace('_', ' ')] as const)],
          filters.get('field') ?? '',
        ),
      ),
      field(
        'Per page',
        select(
          'per_page',
          PAGE_SIZES.map((size) => [size, size] as const),
          perPage,
        ),
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { href: '#/book', class: 'button secondary' }, 'Clear filters'),
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => exportCsv(filters, context, exportStatus) },
        'Export CSV',
      ),
      exportStatus,
    ),
  );
  return form;
}

/**
 * Downloads the filtered book as CSV (GET /_sandbox/receipts/export): one control call, however
 * large the book, counted by no rate limit. The file is made from the answer in the page, as the
 * call needs the Authorization header that a plain link cannot send.
 */
async function exportCsv(filters: URLSearchParams, context: PageContext, status: HTMLElement): Promise<void> {
  status.textContent = 'Exporting...';
  try {
    const { body, headers } = await context.api.answer('get', '/_sandbox/receipts/export', {
      query: Object.fromEntries(filters),
    });
    const name = /filename="([^"]+)"/.exec(headers['content-disposition'] ?? '')?.[1] ?? 'bound-book.csv';
    const url = URL.createObjectURL(new Blob([body], { type: 'text/csv' }));
    const link = h('a', { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = `Exported ${name}.`;
  } catch (error) {
    status.textContent = '';
    context.announce(error instanceof Error ? error.message : 'The export failed.');
  }
}

/**
 * The book's table: the record number within its book identifies the line, then the columns of
 * 27 CFR 478.125(e) grouped as the regulation groups them. It fits a screen 1,280 px wide, the
 * disposition columns (those an inspector reads most) included: text wraps at spaces, and a
 * license or Form 4473 number only after one of its hyphens. On a narrower screen the table
 * scrolls sideways with the record number and the serial number kept in view.
 */
function bookTable(receipts: readonly Receipt[]): HTMLElement {
  const group = (text: string, span: number) => h('th', { scope: 'colgroup', colspan: span }, text);
  const column = (text: string, kind?: string) => h('th', { scope: 'col', class: kind ?? false }, text);
  return scroller(
    'Bound book',
    h(
      'table',
      { class: 'book' },
      h('caption', {}, 'Bound book: acquisition and disposition record'),
      // Each column's width is set by its class: the table is laid out by them, not by its contents.
      h('colgroup', {}, h('col', { class: 'c-record' })),
      h(
        'colgroup',
        {},
        ['c-maker', 'c-importer', 'c-model', 'c-serial', 'c-type', 'c-caliber'].map((name) =>
          h('col', { class: name }),
        ),
      ),
      h(
        'colgroup',
        {},
        ['c-date', 'c-name', 'c-address', 'c-number'].map((name) => h('col', { class: name })),
      ),
      h(
        'colgroup',
        {},
        ['c-date', 'c-name', 'c-address', 'c-number'].map((name) => h('col', { class: name })),
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', rowspan: 2, class: 'record' }, 'Record'),
          group('Description of firearm', 6),
          group('Receipt', 4),
          group('Disposition', 4),
        ),
        h(
          'tr',
          {},
          ['Manufacturer', 'Importer', 'Model'].map((text) => column(text)),
          column('Serial number', 'serial'),
          ['Type', 'Caliber or gauge'].map((text) => column(text)),
          ['Date', 'Name', 'Address', 'License no.'].map((text) => column(text)),
          ['Date', 'Name', 'Address', 'Form 4473 serial no.'].map((text) => column(text)),
        ),
      ),
      h('tbody', {}, receipts.map(bookRow)),
    ),
  );
}

function bookRow(receipt: Receipt): HTMLTableRowElement {
  const disposition = receipt.disposition;
  const cells: Array<string | null | undefined> = [
    receipt.manufacturer,
    receipt.importer,
    receipt.model,
    receipt.serial_number,
    receipt.type,
    receipt.caliber,
    receipt.receipt_date,
    receipt.received_from,
    formatAddress(receipt),
    receipt.ffl_license,
    disposition?.disposition_date,
    disposition?.disposed_to,
    disposition === null ? '' : formatAddress(disposition),
    disposition?.form_4473_serial,
  ];
  return h(
    'tr',
    {},
    // The record number is the line's number within its book: the two are read together.
    h(
      'th',
      { scope: 'row', class: 'record' },
      h('a', { href: `#/receipts/${receipt.id}` }, String(receipt.record)),
      h('span', { class: 'book-name' }, receipt.book),
    ),
    cells.map((value, column) =>
      h(
        'td',
        {
          class:
            column === SERIAL
              ? 'serial whole'
              : KEEP_WHOLE.has(column)
                ? 'whole'
                : BREAK_AT_HYPHENS.has(column)
                  ? 'number'
                  : false,
        },
        BREAK_AT_HYPHENS.has(column) ? atHyphens(value ?? '') : (value ?? ''),
      ),
    ),
  );
}

/** The serial number's column, kept in view beside the record number when the table scrolls. */
const SERIAL = 3;
/** Columns whose values read wrongly when broken across lines: the serial number and the dates. */
const KEEP_WHOLE = new Set([SERIAL, 6, 10]);
/** Columns of numbers made of hyphenated parts (license, Form 4473), broken only after a hyphen. */
const BREAK_AT_HYPHENS = new Set([9, 13]);

/** A value that may break only after its hyphens: the text with a line-break opportunity after each. */
function atHyphens(value: string): Array<string | HTMLElement> {
  return value.split(/(?<=-)/).flatMap((part, at) => (at === 0 ? [part] : [h('wbr'), part]));
}

function pager(filters: URLSearchParams, current: number, last: number, perPage: string): HTMLElement {
  const link = (page: number, text: string, label: string) =>
    h('a', { href: `#/book?${withPage(filters, page, perPage)}`, 'aria-label': label }, text);
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages of the book' },
    current > 1 ? [link(1, 'First', 'First page'), link(current - 1, 'Previous', 'Previous page')] : null,
    h('span', {}, `Page ${formatCount(current)} of ${formatCount(last)}`),
    current < last ? [link(current + 1, 'Next', 'Next page'), link(last, 'Last', 'Last page')] : null,
  );
}
