import { describe, expect, it } from 'vitest';
import { dataOf, dispositionBody, errorsOf, receiptBody, withAccount } from '../harness/harness';

async function withReceipt(input: Record<string, unknown> = {}, body = receiptBody()) {
  const world = await withAccount(input);
  await world.api('POST', '/receipts', { body });
  world.clock.ms += 60_000;
  return world;
}

describe('PUT /rest/v1/receipts/{id}', () => {
  it('changes the given fields, moves updated_at and appends one audit entry with the changes', async () => {
    const { api, control } = await withReceipt();
    const response = await api('PUT', '/receipts/1', {
      body: { model: 'EX-9 Compact OR', purchase_amount: 399, caliber: '9mm Luger' },
    });
    expect(response.status).toBe(200);
    expect(dataOf(response)).toMatchObject({
      model: 'EX-9 Compact OR',
      purchase_amount: 399,
      created_at: '2025-03-14T15:04:05Z',
      updated_at: '2025-03-14T15:05:05Z',
    });
    const trail = dataOf<{ action: string; changes: unknown; occurred_at: string }[]>(
      await control('GET', '/receipts/1/audit'),
    );
    expect(trail.map((entry) => entry.action)).toEqual(['created', 'updated']);
    expect(trail[1]).toEqual({
      id: 2,
      action: 'updated',
      changes: {
        model: { from: 'EX-9 Compact', to: 'EX-9 Compact OR' },
        purchase_amount: { from: 389.5, to: 399 },
      },
      token_id: 1,
      occurred_at: '2025-03-14T15:05:05Z',
    });
  });

  it('changes nothing for a PUT that changes nothing: same updated_at, no audit entry, no version', async () => {
    const { api, control, core } = await withReceipt();
    const before = dataOf(await api('GET', '/receipts/1'));
    const version = core.version;
    for (const body of [{}, { model: ' EX-9 Compact ' }, { book: 'Main', purchase_amount: 389.5 }, { colour: 'red' }]) {
      const response = await api('PUT', '/receipts/1', { body });
      expect(response.status).toBe(200);
      expect(dataOf(response)).toEqual(before);
    }
    expect(core.version).toBe(version);
    expect(dataOf<unknown[]>(await control('GET', '/receipts/1/audit'))).toHaveLength(1);
  });

  it('clears an optional field with null and refuses null on a field required on create', async () => {
    const { api } = await withReceipt();
    expect(dataOf(await api('PUT', '/receipts/1', { body: { purchase_amount: null } }))).toMatchObject({
      purchase_amount: null,
    });
    const response = await api('PUT', '/receipts/1', { body: { serial_number: null, model: null } });
    expect(errorsOf(response)).toEqual({
      serial_number: ['The serial number field is required.'],
      model: ['The model field is required.'],
    });
  });

  it('refuses a change of book and accepts the current book', async () => {
    const { api } = await withReceipt({ books: ['Consignment'] });
    expect(errorsOf(await api('PUT', '/receipts/1', { body: { book: 'Consignment' } }))).toEqual({
      book: ['The book field cannot be changed.'],
    });
    expect((await api('PUT', '/receipts/1', { body: { book: 'Main' } })).status).toBe(200);
  });

  it('validates the merged receipt: clearing the license needs the full address', async () => {
    const { api } = await withReceipt();
    expect(errorsOf(await api('PUT', '/receipts/1', { body: { ffl_license: null, city: 'Springfield' } }))).toEqual({
      address: ['The address field is required when ffl license is not present.'],
      state: ['The state field is required when ffl license is not present.'],
      zip: ['The zip field is required when ffl license is not present.'],
    });
    const body = { ffl_license: null, address: '1 Way', city: 'Springfield', state: 'IL', zip: '62701' };
    expect(dataOf(await api('PUT', '/receipts/1', { body }))).toMatchObject(body);
  });

  it('keeps the importer rule on the merged receipt of an importer account', async () => {
    const body = receiptBody({ importer: 'Example Imports LLC', country_of_origin: 'Austria' });
    const { api } = await withReceipt({ account_type: 'importer' }, body);
    expect(errorsOf(await api('PUT', '/receipts/1', { body: { importer: null } }))).toEqual({
      importer: ['The importer field is required for importer accounts.'],
    });
  });

  it('checks the fields it is given with the rules of create', async () => {
    const { api } = await withReceipt();
    const response = await api('PUT', '/receipts/1', {
      body: { receipt_date: '2025-03-15', state: 'il', purchase_amount: 1.234, serial_number: '' },
    });
    expect(errorsOf(response)).toEqual({
      serial_number: ['The serial number field is required.'],
      receipt_date: ['The receipt date field must be a date before or equal to today.'],
      purchase_amount: ['The purchase amount field must have at most 2 decimal places.'],
      state: ['The selected state is invalid.'],
    });
  });

  it('still corrects a disposed receipt, but not its receipt date past the disposition date', async () => {
    const { api, clock } = await withReceipt({}, receiptBody({ receipt_date: '2025-03-10' }));
    await api('POST', '/receipts/1/dispose', { body: dispositionBody({ disposition_date: '2025-03-12' }) });
    clock.ms += 86_400_000;
    expect(dataOf(await api('PUT', '/receipts/1', { body: { model: 'Fixed' } }))).toMatchObject({
      model: 'Fixed',
      status: 'disposed',
    });
    expect(errorsOf(await api('PUT', '/receipts/1', { body: { receipt_date: '2025-03-13' } }))).toEqual({
      receipt_date: ['The receipt date field must be a date before or equal to the disposition date.'],
    });
  });
});
