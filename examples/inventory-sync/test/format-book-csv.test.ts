import { describe, expect, it } from 'vitest';
import { formatBookCsv } from '../src/format-book-csv';

const HEADER_LINE =
  'Manufacturer,Importer,Model,Serial Number,Type,Caliber or Gauge,Date of Receipt,Received From (Name),Received From (Address),Received From (License No.),Date of Disposition,Disposed To (Name),Disposed To (Address),Disposed To (Form 4473 Serial No.),Book,Record No.,Country of Origin';

describe('formatBookCsv(rows)', () => {
  it('writes the header line first, even for an empty book', () => {
    expect(formatBookCsv([])).toBe(`${HEADER_LINE}\n`);
  });

  it('quotes values that hold commas, quotes or line breaks', () => {
    const csv = formatBookCsv([['Example Arms Co., Inc.', 'The "Best" Imports', 'EX\n9']]);

    expect(csv).toBe(`${HEADER_LINE}\n"Example Arms Co., Inc.","The ""Best"" Imports","EX\n9"\n`);
  });
});
