import { describe, expect, it } from 'vitest';
import { errorsOf, receiptBody, withAccount } from '../harness/harness';

async function rejected(body: Record<string, unknown>, input: Record<string, unknown> = {}) {
  const { api } = await withAccount({ books: ['Consignment'], ...input });
  const response = await api('POST', '/receipts', { body });
  expect(response.status).toBe(422);
  return response;
}

describe('validation of POST /rest/v1/receipts', () => {
  it('reports every missing required field, with the first message in Laravel style', async () => {
    const response = await rejected({});
    expect(response.body).toEqual({
      message: 'The book field is required. (and 11 more errors)',
      errors: {
        book: ['The book field is required.'],
        serial_number: ['The serial number field is required.'],
        manufacturer: ['The manufacturer field is required.'],
        model: ['The model field is required.'],
        type: ['The type field is required.'],
        caliber: ['The caliber field is required.'],
        receipt_date: ['The receipt date field is required.'],
        received_from: ['The received from field is required.'],
        address: ['The address field is required when ffl license is not present.'],
        city: ['The city field is required when ffl license is not present.'],
        state: ['The state field is required when ffl license is not present.'],
        zip: ['The zip field is required when ffl license is not present.'],
      },
    });
  });

  it('writes "(and 1 more error)" for two errors and no suffix for one', async () => {
    expect((await rejected(receiptBody({ model: '', type: ' ' }))).body).toMatchObject({
      message: 'The model field is required. (and 1 more error)',
    });
    expect((await rejected(receiptBody({ model: '  ' }))).body).toEqual({
      message: 'The model field is required.',
      errors: { model: ['The model field is required.'] },
    });
  });

  it('treats null as not given', async () => {
    expect(errorsOf(await rejected(receiptBody({ serial_number: null })))).toEqual({
      serial_number: ['The serial number field is required.'],
    });
  });

  it('refuses numbers, booleans, arrays and objects where strings are expected, without coercion', async () => {
    const errors = errorsOf(
      await rejected(
        receiptBody({ serial_number: 12345, model: true, type: ['Pistol'], caliber: { a: 1 }, zip: 62701 }),
      ),
    );
    expect(errors).toEqual({
      serial_number: ['The serial number field must be a string.'],
      model: ['The model field must be a string.'],
      type: ['The type field must be a string.'],
      caliber: ['The caliber field must be a string.'],
      zip: ['The zip field must be a string.'],
    });
  });

  it('limits strings to 255 characters after trimming', async () => {
    const errors = errorsOf(
      await rejected(receiptBody({ model: 'x'.repeat(256), caliber: ` ${'x'.repeat(255)} ` }), {}),
    );
    expect(errors).toEqual({ model: ['The model field must not be greater than 255 characters.'] });
  });

  it('needs a real YYYY-MM-DD receipt date, not after today on the account clock', async () => {
    for (const date of ['2025-02-29', '2025-13-01', '14/03/2025', '2025-3-14', '2025-03-14T00:00:00Z']) {
      expect(errorsOf(await rejected(receiptBody({ receipt_date: date })))).toEqual({
        receipt_date: ['The receipt date field must be a valid date in the format YYYY-MM-DD.'],
      });
    }
    expect(errorsOf(await rejected(receiptBody({ receipt_date: '2025-03-15' })))).toEqual({
      receipt_date: ['The receipt date field must be a date before or equal to today.'],
    });
  });

  it('takes today from the account clock', async () => {
    const { api, control } = await withAccount();
    expect((await api('POST', '/receipts', { body: receiptBody({ receipt_date: '2025-03-15' }) })).status).toBe(422);
    await control('POST', '/clock/advance', { body: { seconds: 86_400 } });
    expect((await api('POST', '/receipts', { body: receiptBody({ receipt_date: '2025-03-15' }) })).status).toBe(201);
  });

  it('accepts USPS codes of states, DC and territories in capitals only', async () => {
    const { api } = await withAccount();
    for (const state of ['DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'WY']) {
      expect((await api('POST', '/receipts', { body: receiptBody({ state }) })).status).toBe(201);
    }
    for (const state of ['il', 'XX', 'Illinois', '']) {
      expect(errorsOf(await rejected(receiptBody({ state })))).toEqual({ state: ['The selected state is invalid.'] });
    }
  });

  it('checks ZIP and license number shapes', async () => {
    const { api } = await withAccount();
    for (const ffl_license of ['999999016A00001', '1-23-456-07-8M-12345']) {
      expect((await api('POST', '/receipts', { body: receiptBody({ ffl_license }) })).status).toBe(201);
    }
    for (const ffl_license of ['2-99-999-01-6A-00001', '9-99-999-01-6I-00001', '9-99-999-01-6N-00001', 'nope']) {
      expect(errorsOf(await rejected(receiptBody({ ffl_license })))).toEqual({
        ffl_license: ['The ffl license field format is invalid.'],
      });
    }
    for (const zip of ['6270', '62701-12', 'ABCDE']) {
      expect(errorsOf(await rejected(receiptBody({ zip })))).toEqual({ zip: ['The zip field format is invalid.'] });
    }
  });

  it('needs amounts that are numbers at least 0 with at most 2 decimal places', async () => {
    const { api } = await withAccount();
    for (const purchase_amount of [0, 389.5, 0.07, 1234567.89, 2 ** 53 - 1]) {
      expect((await api('POST', '/receipts', { body: receiptBody({ purchase_amount }) })).status).toBe(201);
    }
    const cases: [unknown, string][] = [
      [0.1 + 0.2, 'The purchase amount field must have at most 2 decimal places.'],
      [1.005, 'The purchase amount field must have at most 2 decimal places.'],
      [1e-7, 'The purchase amount field must have at most 2 decimal places.'],
      [-1, 'The purchase amount field must be at least 0.'],
      ['389.50', 'The purchase amount field must be a number.'],
      [1e21, 'The purchase amount field must not be greater than 9007199254740991.'],
    ];
    for (const [purchase_amount, message] of cases) {
      expect(errorsOf(await rejected(receiptBody({ purchase_amount })))).toEqual({ purchase_amount: [message] });
    }
  });

  it('needs the full address when no license is given, reporting each missing part', async () => {
    const errors = errorsOf(await rejected(receiptBody({ ffl_license: undefined, address: '1 Way', zip: '62701' })));
    expect(errors).toEqual({
      city: ['The city field is required when ffl license is not present.'],
      state: ['The state field is required when ffl license is not present.'],
    });
  });

  it('refuses an empty optional field rather than taking it as absent', async () => {
    expect(errorsOf(await rejected(receiptBody({ address: '' })))).toEqual({
      address: ['The address field must not be empty.'],
    });
  });

  it('needs importer and country of origin for importer accounts only', async () => {
    expect(errorsOf(await rejected(receiptBody({ importer: '' }), { account_type: 'importer' }))).toEqual({
      importer: ['The importer field is required for importer accounts.'],
      country_of_origin: ['The country of origin field is required for importer accounts.'],
    });
    const { api } = await withAccount({ account_type: 'importer' });
    const body = receiptBody({ importer: 'Example Imports LLC', country_of_origin: 'Austria' });
    expect((await api('POST', '/receipts', { body })).status).toBe(201);
  });

  it('needs the book to exist in the account, by its exact name', async () => {
    expect(errorsOf(await rejected(receiptBody({ book: 'main' })))).toEqual({
      book: ['The selected book is invalid.'],
    });
  });

  it('answers 422 errors.body for malformed JSON and for JSON that is not an object', async () => {
    const { api } = await withAccount();
    const malformed = await api('POST', '/receipts', { rawBody: '{"book":' });
    expect(malformed.body).toEqual({
      message: 'The request body is not valid JSON.',
      errors: { body: ['The request body is not valid JSON.'] },
    });
    for (const rawBody of ['[]', 'null', '"text"', '12']) {
      const response = await api('POST', '/receipts', { rawBody });
      expect(response.status).toBe(422);
      expect(errorsOf(response)).toEqual({ body: ['The request body must be a JSON object.'] });
    }
  });

  it('changes nothing when it refuses a request', async () => {
    const { api, core } = await withAccount();
    const before = JSON.stringify(core.snapshot());
    await api('POST', '/receipts', { body: receiptBody({ book: 'Missing' }) });
    expect(JSON.stringify(core.snapshot())).toBe(before);
    const created = await api('POST', '/receipts', { body: receiptBody() });
    expect((created.body as { data: { record: number } }).data.record).toBe(1);
  });

  it('refuses NUL characters and unpaired surrogates in text, wherever they are', async () => {
    const { api } = await withAccount();
    const response = await api('POST', '/receipts', {
      rawBody: JSON.stringify(receiptBody({ serial_number: 'EXA\u00001', model: 'EX-9' })).replace(
        '"EX-9"',
        '"EX\\ud800-9"',
      ),
    });
    expect(errorsOf(response)).toEqual({
      serial_number: ['The serial number field must not contain NUL characters or unpaired surrogates.'],
      model: ['The model field must not contain NUL characters or unpaired surrogates.'],
    });
    expect((await api('GET', '/receipts', { query: 'serial_number=%00' })).status).toBe(422);
    const emoji = await api('POST', '/receipts', { body: receiptBody({ model: 'EX-9 \u{1F52B}' }) });
    expect(emoji.status).toBe(201);
  });

  it('refuses an amount that JSON would store as another value, and a date before 1900', async () => {
    const { api } = await withAccount();
    const tiny = await api('POST', '/receipts', { rawBody: JSON.stringify(receiptBody()).replace('389.5', '1e-400') });
    expect(errorsOf(tiny)).toEqual({
      purchase_amount: [
        'The purchase amount field must be a number that is stored as written: it would be stored as 0.',
      ],
    });
    const long = await api('POST', '/receipts', {
      rawBody: JSON.stringify(receiptBody()).replace('389.5', '389.499999999999999999'),
    });
    expect(Object.keys(errorsOf(long))).toEqual(['purchase_amount']);
    const old = await api('POST', '/receipts', { body: receiptBody({ receipt_date: '1899-12-31' }) });
    expect(errorsOf(old)).toEqual({
      receipt_date: ['The receipt date field must be a date after or equal to 1900-01-01.'],
    });
    expect((await api('POST', '/receipts', { body: receiptBody({ receipt_date: '1900-01-01' }) })).status).toBe(201);
  });
});
