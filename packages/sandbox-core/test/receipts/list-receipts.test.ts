import { describe, expect, it } from 'vitest';
import type { Page, Receipt } from '@fflkit/types';
import { dataOf, dispositionBody, errorsOf, receiptBody, withAccount } from '../harness/harness';

async function withReceipts(count: number) {
  const world = await withAccount({ books: ['Consignment'] }, { rateLimit: 0 });
  for (let index = 1; index <= count; index += 1) {
    const body = receiptBody({
      serial_number: `SN-${index}`,
      manufacturer: index % 2 === 0 ? 'Even Arms' : 'Odd Works',
      book: index % 3 === 0 ? 'Consignment' : 'Main',
    });
    await world.api('POST', '/receipts', { body });
    world.clock.ms += 1000;
  }
  return world;
}

const page = (response: { body?: unknown }) => response.body as Page<Receipt>;

describe('GET /rest/v1/receipts', () => {
  it('answers the Laravel envelope with absolute links that keep the other parameters', async () => {
    const { api } = await withReceipts(51);
    const response = await api('GET', '/receipts', {
      query: 'status=on_hand&page=3',
      headers: { host: 'logbook.example.com', 'x-forwarded-proto': 'https' },
    });
    const base = 'https://logbook.example.com/rest/v1/receipts';
    expect(page(response).links).toEqual({
      first: `${base}?status=on_hand&page=1`,
      last: `${base}?status=on_hand&page=3`,
      prev: `${base}?status=on_hand&page=2`,
      next: null,
    });
    expect(page(response).meta).toEqual({
      current_page: 3,
      from: 51,
      last_page: 3,
      path: base,
      per_page: 25,
      to: 51,
      total: 51,
    });
    expect(page(response).data.map((receipt) => receipt.id)).toEqual([51]);
    expect(Object.keys(page(response))).toEqual(['data', 'links', 'meta']);
  });

  it('pages a filtered list by its matches: the page asked for, their count, and an empty page past the last', async () => {
    const { api } = await withReceipts(9);
    const filtered = (query: string) => api('GET', '/receipts', { query }).then(page);
    const second = await filtered('manufacturer=odd&per_page=2&page=2');
    expect(second.data.map((receipt) => receipt.id)).toEqual([5, 7]);
    expect(second.meta).toMatchObject({ current_page: 2, from: 3, to: 4, last_page: 3, total: 5 });
    const last = await filtered('manufacturer=odd&per_page=2&page=3');
    expect(last.data.map((receipt) => receipt.id)).toEqual([9]);
    expect(last.meta).toMatchObject({ from: 5, to: 5, total: 5 });
    const past = await filtered('manufacturer=odd&per_page=2&page=4');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ from: null, to: null, last_page: 3, total: 5 });
    // With the book's index narrowing first: receipts 3, 6 and 9 are in Consignment; 3 and 9 odd.
    const book = await filtered('book=Consignment&manufacturer=odd&per_page=1&page=2');
    expect(book.data.map((receipt) => receipt.id)).toEqual([9]);
    expect(book.meta.total).toBe(2);
  });

  it('orders by id, appends page to the links and answers an empty page past the last', async () => {
    const { api, call, token } = await withReceipts(3);
    const first = page(await api('GET', '/receipts', { query: 'per_page=2' }));
    expect(first.data.map((receipt) => receipt.id)).toEqual([1, 2]);
    expect(first.links.next).toBe('http://sandbox.test/rest/v1/receipts?per_page=2&page=2');
    expect(first.links.prev).toBeNull();
    const past = page(await api('GET', '/receipts', { query: 'page=9' }));
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 1, total: 3 });
    expect(past.links.prev).toBe('http://sandbox.test/rest/v1/receipts?page=8');
    const bare = page(await call('GET', '/rest/v1/receipts', { token, headers: { host: '' } }));
    expect(bare.meta.path).toBe('http://localhost/rest/v1/receipts');
  });

  it('answers an empty first page for an empty account', async () => {
    const { api } = await withAccount();
    expect(page(await api('GET', '/receipts')).meta).toEqual({
      current_page: 1,
      from: null,
      last_page: 1,
      path: 'http://sandbox.test/rest/v1/receipts',
      per_page: 25,
      to: null,
      total: 0,
    });
  });

  it('filters by book, status, serial number and manufacturer, all of them together', async () => {
    const { api } = await withReceipts(12);
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    const ids = async (query: string) =>
      page(await api('GET', '/receipts', { query })).data.map((receipt) => receipt.id);
    expect(await ids('book=Consignment')).toEqual([3, 6, 9, 12]);
    expect(await ids('book=Nothing')).toEqual([]);
    expect(await ids('status=disposed')).toEqual([2]);
    expect(await ids('status=on_hand&book=Main')).toEqual([1, 4, 5, 7, 8, 10, 11]);
    expect(await ids('serial_number=sn-1')).toEqual([1, 10, 11, 12]);
    expect(await ids('manufacturer=EVEN%20arms&serial_number=1')).toEqual([10, 12]);
    expect(await ids('manufacturer=even+arms&book=Consignment')).toEqual([6, 12]);
  });

  it('keeps receipts updated strictly after since, in any offset', async () => {
    const { api } = await withReceipts(3);
    const ids = async (since: string) =>
      page(await api('GET', '/receipts', { query: `since=${encodeURIComponent(since)}` })).data.map(
        (receipt) => receipt.id,
      );
    expect(await ids('2025-03-14T15:04:05Z')).toEqual([2, 3]);
    expect(await ids('2025-03-14T15:04:05.999Z')).toEqual([2, 3]);
    expect(await ids('2025-03-14T16:04:05+01:00')).toEqual([2, 3]);
    expect(await ids('2025-03-14T15:04:04-00:00')).toEqual([1, 2, 3]);
  });

  it('answers 422 keyed by parameter for invalid, out-of-range and repeated parameters', async () => {
    const { api } = await withAccount();
    const errors = async (query: string) => errorsOf(await api('GET', '/receipts', { query }));
    expect(await errors('per_page=201')).toEqual({ per_page: ['The per page field must be between 1 and 200.'] });
    expect(await errors('per_page=0&page=0')).toEqual({
      page: ['The page field must be at least 1.'],
      per_page: ['The per page field must be between 1 and 200.'],
    });
    expect(await errors('page=1.5')).toEqual({ page: ['The page field must be an integer.'] });
    expect(await errors('page=')).toEqual({ page: ['The page field must be an integer.'] });
    expect(await errors('status=sold')).toEqual({ status: ['The selected status is invalid.'] });
    expect(await errors('since=2025-03-14')).toEqual({
      since: ['The since field must be an RFC 3339 date-time with a UTC offset, such as 2025-03-01T00:00:00Z.'],
    });
    // An unencoded `+` reads as a space, so the offset must be sent as %2B.
    expect(await errors('since=2025-03-14T00:00:00+01:00')).toHaveProperty('since');
    expect(await errors('book=')).toEqual({ book: ['The book field must not be empty.'] });
    expect(await errors('page=1&page=2')).toEqual({ page: ['The page field must be given only once.'] });
    expect(await errors('serial_number=%E0%A4%A')).toEqual({
      serial_number: ['The serial number field is not correctly percent-encoded.'],
    });
    expect((await api('GET', '/receipts', { query: 'unknown=1&unknown=2&__proto__=x' })).status).toBe(200);
  });
});

describe('GET /_sandbox/receipts and GET /_sandbox/receipts/export', () => {
  it('browse with the list filters and the search together, in pages of up to 1,000, uncounted and unlogged', async () => {
    const { api, control } = await withAccount({ books: ['Consignment'] }, { rateLimit: 1 });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'GLK-1', manufacturer: 'Glock GmbH' }) });
    for (let n = 0; n < 3; n += 1) {
      await control('GET', '/requests');
    }
    const browse = async (query: string) =>
      (await control('GET', '/receipts', { query })).body as {
        data: { serial_number: string }[];
        meta: { per_page: number; total: number };
      };
    expect((await browse('')).meta).toMatchObject({ per_page: 50, total: 1 });
    expect((await browse('q=glock&field=manufacturer&per_page=1000')).meta).toMatchObject({ per_page: 1000, total: 1 });
    expect((await browse('q=glock&field=model')).meta.total).toBe(0);
    expect((await control('GET', '/receipts', { query: 'per_page=1001&field=colour' })).body).toMatchObject({
      errors: {
        field: ['The selected field is invalid.'],
        per_page: ['The per page field must be between 1 and 1000.'],
      },
    });
    expect(dataOf<unknown[]>(await control('GET', '/requests'))).toHaveLength(1);
  });

  it('export the book as CSV in bound-book order and the columns of 27 CFR 478.125(e), fields quoted as RFC 4180 asks', async () => {
    const { api, control } = await withAccount({ books: ['Consignment'] });
    await api('POST', '/receipts', { body: receiptBody({ book: 'Consignment', serial_number: 'C-1' }) });
    await api('POST', '/receipts', {
      body: receiptBody({
        serial_number: 'M-1',
        model: 'EX-9, "Compact"',
        ffl_license: null,
        address: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
      }),
    });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    const exported = await control('GET', '/receipts/export');
    expect(exported.status).toBe(200);
    expect(exported.headers).toMatchObject({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="bound-book.csv"',
    });
    const lines = (exported.body as string).split('\r\n');
    expect(lines[0]).toBe(
      'Manufacturer,Importer,Model,Serial Number,Type,Caliber or Gauge,Date of Receipt,Received From (Name),Received From (Address),Received From (License No.),Date of Disposition,Disposed To (Name),Disposed To (Address),Disposed To (Form 4473 Serial No.),Book,Record No.,Country of Origin,Status',
    );
    expect(lines[1]).toMatch(/^Example Arms Co\.,,EX-9 Compact,C-1,.*,Consignment,1,,on_hand$/);
    expect(lines[2]).toBe(
      'Example Arms Co.,,"EX-9, ""Compact""",M-1,Pistol,9mm Luger,2025-03-14,Example Firearms Wholesale LLC,"1 Main St, Springfield, IL 62701",,2025-03-14,John Q. Example,,2025-000123,Main,1,,disposed',
    );
    expect(lines[3]).toBe('');
    const main = await control('GET', '/receipts/export', { query: 'book=Main' });
    expect((main.body as string).split('\r\n')).toHaveLength(3);
    expect(main.headers['Content-Disposition']).toBe('attachment; filename="bound-book-Main.csv"');
  });
});
