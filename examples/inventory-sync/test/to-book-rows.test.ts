import { describe, expect, it } from 'vitest';
import { BOUND_BOOK_HEADER } from '../src/bound-book-columns';
import { toBookRows } from '../src/to-book-rows';
import { makeDisposition, makeReceipt } from './make-receipt';

describe('BOUND_BOOK_HEADER', () => {
  it('lists the columns of 27 CFR 478.125(e) in the order of its format table, then the extra columns', () => {
    expect(BOUND_BOOK_HEADER).toEqual([
      // Description of the firearm.
      'Manufacturer',
      'Importer',
      'Model',
      'Serial Number',
      'Type',
      'Caliber or Gauge',
      // Receipt.
      'Date of Receipt',
      'Received From (Name)',
      'Received From (Address)',
      'Received From (License No.)',
      // Disposition.
      'Date of Disposition',
      'Disposed To (Name)',
      'Disposed To (Address)',
      'Disposed To (Form 4473 Serial No.)',
      // Extra columns, kept after the required ones.
      'Book',
      'Record No.',
      'Country of Origin',
    ]);
  });
});

describe('toBookRows(receipts)', () => {
  it('maps each field of a receipt received from a licensee to its column', () => {
    const receipt = makeReceipt({ importer: 'Example Imports Inc.', country_of_origin: 'Austria', record: 12 });

    const [row] = toBookRows([receipt]);

    expect(row).toEqual([
      'Example Arms Co.',
      'Example Imports Inc.',
      'EX-9 Compact',
      'EXA0000001',
      'Pistol',
      '9mm Luger',
      '2025-03-14',
      'Example Firearms Wholesale LLC',
      '',
      '9-99-999-01-6A-00001',
      '',
      '',
      '',
      '',
      'Main',
      '12',
      'Austria',
    ]);
  });

  it('writes the address of a party without a license as one line', () => {
    const receipt = makeReceipt({
      received_from: 'Jane Example',
      ffl_license: null,
      address: '1 Example Way',
      city: 'Springfield',
      state: 'IL',
      zip: '62701-1234',
    });

    const [row] = toBookRows([receipt]);

    expect(column(row, 'Received From (Name)')).toBe('Jane Example');
    expect(column(row, 'Received From (Address)')).toBe('1 Example Way, Springfield, IL 62701-1234');
    expect(column(row, 'Received From (License No.)')).toBe('');
  });

  it('fills the disposition columns from a disposition to an address', () => {
    const receipt = makeReceipt({ status: 'disposed', disposition: makeDisposition() });

    const [row] = toBookRows([receipt]);

    expect(column(row, 'Date of Disposition')).toBe('2025-04-02');
    expect(column(row, 'Disposed To (Name)')).toBe('John Q. Example');
    expect(column(row, 'Disposed To (Address)')).toBe('12 Sample Street, Springfield, IL 62701');
    expect(column(row, 'Disposed To (Form 4473 Serial No.)')).toBe('');
  });

  it('fills the Form 4473 serial number of a disposition recorded by its form', () => {
    const disposition = makeDisposition({
      address: null,
      city: null,
      state: null,
      zip: null,
      form_4473_serial: '2025-000123',
    });
    const [row] = toBookRows([makeReceipt({ status: 'disposed', disposition })]);

    expect(column(row, 'Disposed To (Address)')).toBe('');
    expect(column(row, 'Disposed To (Form 4473 Serial No.)')).toBe('2025-000123');
  });

  it('leaves the disposition columns of a firearm on hand blank', () => {
    const [row] = toBookRows([makeReceipt()]);

    expect(row?.slice(BOUND_BOOK_HEADER.indexOf('Date of Disposition'), BOUND_BOOK_HEADER.indexOf('Book'))).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });

  it('orders the rows by book, then by record number within the book', () => {
    const receipts = [
      makeReceipt({ id: 1, book: 'Main', record: 2 }),
      makeReceipt({ id: 2, book: 'Consignment', record: 1 }),
      makeReceipt({ id: 3, book: 'Main', record: 10 }),
      makeReceipt({ id: 4, book: 'Main', record: 1 }),
    ];

    const rows = toBookRows(receipts);

    expect(rows.map((row) => `${column(row, 'Book')} ${column(row, 'Record No.')}`)).toEqual([
      'Consignment 1',
      'Main 1',
      'Main 2',
      'Main 10',
    ]);
  });

  it('keeps only the book asked for', () => {
    const receipts = [makeReceipt({ id: 1, book: 'Main' }), makeReceipt({ id: 2, book: 'Consignment' })];

    const rows = toBookRows(receipts, { book: 'Consignment' });

    expect(rows.map((row) => column(row, 'Book'))).toEqual(['Consignment']);
  });
});

function column(row: readonly string[] | undefined, header: string): string | undefined {
  const index = BOUND_BOOK_HEADER.indexOf(header);
  if (index === -1) throw new Error(`no column ${header}`);
  return row?.[index];
}
