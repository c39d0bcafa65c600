import type { Book, Receipt } from '@fflkit/types';
import { ConformanceError } from './conformance-error';
import type { ProbeClient, ProbeExchange } from './probe-client';
import type { Verdicts } from './verdicts';

// The read-only probes of a conformance run: requests that change nothing whatever the service
// does with them (reads; and writes sent without a token or with a read-only one, which the
// service refuses before it reads them). Each aims at choices of the contract; every answer is
// also checked whole, as the drift proxy checks traffic.

/** What the read probes learned of the account, for the probes that write. */
export interface AccountSight {
  readonly books: readonly string[];
  /** A receipt of the account, when it has one. */
  readonly sample: Receipt | undefined;
}

interface Page {
  data: Receipt[];
  links: { next: string | null };
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/** An id no receipt has, in all likelihood: the largest a 32-bit signed integer holds. */
const UNLIKELY_ID = 2_147_483_647;

const PAGE_CHOICES = [
  'pagination.envelope',
  'pagination.meta',
  'pagination.links',
  'lists.order',
  'rate-limit.headers',
];

/** Runs the read-only probes. */
export async function runReadProbes(client: ProbeClient, verdicts: Verdicts): Promise<AccountSight> {
  const books = await client.send('GET', '/books');
  if (books.status === 401) {
    throw new ConformanceError(
      '[@fflkit/sandbox] the service answered 401 to the token: pass a token of the account to probe',
    );
  }
  verdicts.clean(
    books,
    200,
    ['pagination.unpaginated-lists', 'books.fields', 'lists.order', 'rate-limit.headers'],
    'the book list of the contract',
  );
  const bookNames = dataOf<Book[]>(books)?.map((book) => book.name) ?? [];
  if (bookNames.length > 0) verdicts.clean(books, 200, ['conventions.utc-timestamps'], 'timestamps in UTC');

  const webhooks = await client.send('GET', '/webhooks');
  verdicts.clean(
    webhooks,
    200,
    ['pagination.unpaginated-lists', 'webhooks.list-without-secrets'],
    'the endpoint list of the contract, without secrets',
  );
  if ((dataOf<unknown[]>(webhooks)?.length ?? 0) > 0)
    verdicts.clean(webhooks, 200, ['webhooks.endpoint-fields'], 'endpoints of the contract');

  const first = await client.send('GET', '/receipts');
  verdicts.clean(
    first,
    200,
    [...PAGE_CHOICES, 'pagination.per-page', 'pagination.page'],
    'page 1 of 25 receipts at most, in the envelope',
  );
  const page = pageOf(first);
  const sample = page?.data[0];
  if (page !== undefined && sample !== undefined) {
    verdicts.clean(
      first,
      200,
      ['receipts.resource', 'conventions.utc-timestamps'],
      'receipts of the contract, timestamps in UTC',
    );
    if (page.data.some((receipt) => receipt.documents.length > 0))
      verdicts.clean(first, 200, ['receipts.document-fields'], 'documents of the contract');
    if (page.data.some((receipt) => receipt.e4473 !== null)) {
      verdicts.clean(first, 200, ['receipts.e4473-fields', 'receipts.nics-result'], 'E4473 data of the contract');
    }
  }

  const largest = await client.send('GET', '/receipts?per_page=200');
  expectPage(
    verdicts,
    'pagination.per-page',
    largest,
    (found) => found.meta.per_page === 200,
    '200 with meta.per_page 200',
  );
  for (const query of ['per_page=201', 'per_page=0']) {
    const refused = await client.send('GET', `/receipts?${query}`);
    verdicts.expect(
      'pagination.per-page',
      refused,
      invalidField(refused, 'per_page'),
      '422 with errors.per_page, not a clamped page',
    );
    verdicts.clean(refused, 422, ['errors.validation-body', 'errors.body'], 'a 422 in the error shape');
  }
  const zero = await client.send('GET', '/receipts?page=0');
  verdicts.expect('pagination.page', zero, invalidField(zero, 'page'), '422 with errors.page');
  if (page !== undefined) {
    const past = await client.send('GET', `/receipts?page=${page.meta.last_page + 1}`);
    expectPage(
      verdicts,
      'pagination.past-last-page',
      past,
      (found) => found.data.length === 0,
      '200 with an empty data',
    );
  }

  const missing = await client.send('GET', `/receipts/${UNLIKELY_ID}`);
  if (missing.status !== 200) {
    verdicts.expect(
      'errors.not-found-message',
      missing,
      missing.status === 404 && messageOf(missing) === 'Record not found.',
      '404 {"message":"Record not found."}',
    );
    verdicts.clean(missing, 404, ['errors.body'], 'a 404 in the error shape');
  }
  const unrouted = await client.send('GET', '/receipts/abc');
  verdicts.expect('routing.unknown-route', unrouted, unrouted.status === 404, '404: no operation has this path');
  verdicts.clean(unrouted, 404, ['routing.unknown-route'], '404 without rate-limit headers');

  await probeAuthentication(client, verdicts);
  await probeLists(client, verdicts);
  await probeSearch(client, verdicts);
  await probeRefusedWrites(client, verdicts);
  if (sample !== undefined) await probeReceipt(client, verdicts, sample);
  else {
    for (const id of SAMPLE_CHOICES)
      verdicts.unprobed(id, 'the account has no receipt to look at (--allow-writes makes one)');
  }
  return { books: bookNames, sample };
}

/** The choices that need a receipt of the account to look at. */
const SAMPLE_CHOICES = [
  'conventions.resource-envelope',
  'filters.serial-number-substring',
  'filters.manufacturer-substring',
  'search.matching',
];

/** What can be seen of one receipt of the account: it alone, and the lists and search that find it. */
export async function probeReceipt(client: ProbeClient, verdicts: Verdicts, sample: Receipt): Promise<void> {
  const one = await client.send('GET', `/receipts/${sample.id}`);
  verdicts.clean(one, 200, ['conventions.resource-envelope', 'receipts.resource'], 'the receipt, as {"data": receipt}');
  for (const [field, id] of [
    ['serial_number', 'filters.serial-number-substring'],
    ['manufacturer', 'filters.manufacturer-substring'],
  ] as const) {
    const term = partOf(sample[field]);
    const found = await client.send('GET', `/receipts?${field}=${encodeURIComponent(term)}&per_page=200`);
    expectPage(
      verdicts,
      id,
      found,
      (listed) => listed.data.some((receipt) => receipt.id === sample.id),
      `a page with receipt ${sample.id}, whose ${field} holds ${JSON.stringify(term)} in another case`,
    );
  }
  const since = await client.send('GET', `/receipts?since=${encodeURIComponent(sample.updated_at)}&per_page=200`);
  expectPage(
    verdicts,
    'filters.since',
    since,
    (listed) => listed.data.every((receipt) => receipt.id !== sample.id),
    `a page without receipt ${sample.id}, updated at ${sample.updated_at} exactly`,
  );
  const term = partOf(sample.serial_number);
  const found = await client.send('GET', `/search?q=${encodeURIComponent(term)}&per_page=200`);
  verdicts.clean(found, 200, PAGE_CHOICES, 'a page of receipts');
  expectPage(
    verdicts,
    'search.matching',
    found,
    (listed) => listed.data.some((receipt) => receipt.id === sample.id),
    `a page with receipt ${sample.id}, whose serial number holds ${JSON.stringify(term)} in another case`,
  );
}

/** 401s, and that the token is checked first. */
async function probeAuthentication(client: ProbeClient, verdicts: Verdicts): Promise<void> {
  for (const credentials of ['none', 'unknown-token'] as const) {
    const refused = await client.send('GET', '/books', { credentials });
    verdicts.expect(
      'errors.unauthenticated',
      refused,
      refused.status === 401 &&
        messageOf(refused) === 'Unauthenticated.' &&
        refused.headers['www-authenticate'] === 'Bearer',
      '401 {"message":"Unauthenticated."} with WWW-Authenticate: Bearer',
    );
    verdicts.clean(refused, 401, ['errors.body'], 'the 401 in the error shape');
  }
  for (const path of [`/receipts/${UNLIKELY_ID}`, '/receipts?per_page=0']) {
    const first = await client.send('GET', path, { credentials: 'none' });
    verdicts.expect('checks.order', first, first.status === 401, '401 before 404 and 422');
  }
}

/** The filters of GET /receipts that find nothing, the inventory, and a `since` of another form. */
async function probeLists(client: ProbeClient, verdicts: Verdicts): Promise<void> {
  const inventory = await client.send('GET', '/inventory');
  verdicts.clean(inventory, 200, [...PAGE_CHOICES, 'inventory.on-hand'], 'a page of on-hand receipts');
  const nothing = await client.send('GET', '/receipts?serial_number=fflkit-conformance-no-such-serial');
  expectPage(verdicts, 'receipts.list-filters', nothing, (found) => found.data.length === 0, 'an empty page');
  const noBook = await client.send('GET', `/receipts?book=${encodeURIComponent('FFLKit conformance: no such book')}`);
  expectPage(verdicts, 'filters.book-exact', noBook, (found) => found.data.length === 0, 'an empty page');
  const badSince = await client.send('GET', '/receipts?since=yesterday');
  verdicts.expect('filters.since', badSince, invalidField(badSince, 'since'), '422 with errors.since');
}

/** GET /search: its query and its field. */
async function probeSearch(client: ProbeClient, verdicts: Verdicts): Promise<void> {
  for (const query of ['', 'q=%20%20', `q=${'a'.repeat(101)}`]) {
    const refused = await client.send('GET', `/search${query === '' ? '' : `?${query}`}`);
    verdicts.expect('search.q', refused, invalidField(refused, 'q'), '422 with errors.q');
  }
  const field = await client.send('GET', '/search?q=a&field=color');
  verdicts.expect('search.field', field, invalidField(field, 'field'), '422 with errors.field');
  const found = await client.send('GET', '/search?q=fflkit');
  verdicts.clean(
    found,
    200,
    [...PAGE_CHOICES, 'pagination.per-page'],
    'a page of 25 receipts at most, in the envelope',
  );
  const nul = await client.send('GET', '/search?q=a%00b');
  verdicts.expect('conventions.exact-text', nul, invalidField(nul, 'q'), '422 with errors.q');
}

/** Writes the service refuses before reading them: without a token, or with a read-only one. */
async function probeRefusedWrites(client: ProbeClient, verdicts: Verdicts): Promise<void> {
  // One byte over 1 MB, without a token: refused as it is read, so nothing can come of it.
  const large = await client.send('POST', '/receipts', { credentials: 'none', body: `"${'x'.repeat(1_048_575)}"` });
  verdicts.expect('conventions.body-limit', large, large.status === 413, '413: the body is over 1 MB');
  verdicts.expect(
    'errors.payload-too-large',
    large,
    large.status === 413 && large.headers['x-ratelimit-limit'] === undefined,
    '413 before the token is checked, without rate-limit headers',
  );
  if (!client.hasReadToken) {
    for (const id of ['errors.forbidden-message', 'webhooks.permissions']) {
      verdicts.unprobed(id, 'it needs a token that holds read only: pass --read-token');
    }
    verdicts.unprobed('checks.order', 'its 403 part needs a token that holds read only: pass --read-token');
    return;
  }
  const receipt = await client.send('POST', '/receipts', { credentials: 'read-token', body: {} });
  const message = messageOf(receipt);
  verdicts.expect('checks.order', receipt, receipt.status === 403, '403 before the 422 of the empty body');
  verdicts.expect(
    'errors.forbidden-message',
    receipt,
    receipt.status === 403 && typeof message === 'string' && /write/i.test(message),
    '403 whose message names the write permission',
  );
  const webhook = await client.send('POST', '/webhooks', { credentials: 'read-token', body: {} });
  verdicts.expect('webhooks.permissions', webhook, webhook.status === 403, '403: POST /webhooks needs write');
}

function messageOf(exchange: ProbeExchange): unknown {
  return (exchange.body as { message?: unknown } | undefined)?.message;
}

function dataOf<T>(exchange: ProbeExchange): T | undefined {
  return exchange.status === 200 ? (exchange.body as { data?: T } | undefined)?.data : undefined;
}

/**
 * Judges `id` by a page of receipts: confirmed or contradicted by `holds`, unless the answer is a
 * 200 that is no page of the contract (the envelope's choice is contradicted then, not this one).
 */
function expectPage(
  verdicts: Verdicts,
  id: string,
  exchange: ProbeExchange,
  holds: (page: Page) => boolean,
  expected: string,
): void {
  const page = pageOf(exchange);
  if (page === undefined && exchange.status === 200) return;
  verdicts.expect(id, exchange, page !== undefined && holds(page), expected);
}

/** A page of receipts as the contract shapes it; `undefined` for an answer of another shape. */
function pageOf(exchange: ProbeExchange): Page | undefined {
  const page = exchange.body as Page | undefined;
  const shaped =
    exchange.status === 200 &&
    Array.isArray(page?.data) &&
    typeof page.meta === 'object' &&
    page.meta !== null &&
    typeof page.links === 'object' &&
    page.links !== null;
  return shaped ? page : undefined;
}

/** Whether the exchange is a 422 naming `field` in its errors. */
export function invalidField(exchange: ProbeExchange, field: string): boolean {
  const errors = (exchange.body as { errors?: Record<string, unknown> } | undefined)?.errors;
  return exchange.status === 422 && Array.isArray(errors?.[field]) && (errors[field] as unknown[]).length > 0;
}

/** A middle part of a text, in the other case: what a case-insensitive substring match finds. */
function partOf(text: string): string {
  const part = text.length <= 3 ? text : text.slice(1, -1);
  const swapped = [...part].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return swapped;
}
