import { describe, expect, it } from 'vitest';
import { dataOf, receiptBody, withAccount } from '../harness/harness';

describe('POST /rest/v1/receipts', () => {
  it('answers 201 with the full receipt, on hand, in the contract order', async () => {
    const { api, accountId } = await withAccount();
    const response = await api('POST', '/receipts', { body: receiptBody() });
    expect(response.status).toBe(201);
    expect(response.headers).toEqual({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' });
    const receipt = dataOf(response);
    expect(Object.keys(receipt)).toEqual([
      'id',
      'user_id',
      'record',
      'book',
      'status',
      'serial_number',
      'manufacturer',
      'importer',
      'country_of_origin',
      'model',
      'type',
      'caliber',
      'receipt_date',
      'purchase_amount',
      'received_from',
      'ffl_license',
      'address',
      'city',
      'state',
      'zip',
      'disposition',
      'documents',
      'e4473',
      'created_at',
      'updated_at',
    ]);
    expect(receipt).toEqual({
      id: 1,
      user_id: accountId,
      record: 1,
      book: 'Main',
      status: 'on_hand',
      serial_number: 'EXA0012345',
      manufacturer: 'Example Arms Co.',
      importer: null,
      country_of_origin: null,
      model: 'EX-9 Compact',
      type: 'Pistol',
      caliber: '9mm Luger',
      receipt_date: '2025-03-14',
      purchase_amount: 389.5,
      received_from: 'Example Firearms Wholesale LLC',
      ffl_license: '9-99-999-01-6A-00001',
      address: null,
      city: null,
      state: null,
      zip: null,
      disposition: null,
      documents: [],
      e4473: null,
      created_at: '2025-03-14T15:04:05Z',
      updated_at: '2025-03-14T15:04:05Z',
    });
  });

  it('stores trimmed strings and accepts an address instead of a license', async () => {
    const { api } = await withAccount();
    const body = receiptBody({
      serial_number: '  EXR7700881 ',
      ffl_license: null,
      address: ' 100 Example Way',
      city: 'Springfield ',
      state: ' IL ',
      zip: '62701',
      importer: '',
    });
    const receipt = dataOf(await api('POST', '/receipts', { body }));
    expect(receipt).toMatchObject({
      serial_number: 'EXR7700881',
      ffl_license: null,
      address: '100 Example Way',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      importer: '',
    });
  });

  it('numbers records per book from 1, while ids run across books and accounts', async () => {
    const first = await withAccount({ books: ['Consignment'] });
    const created = [];
    for (const book of ['Main', 'Consignment', 'Main']) {
      created.push(
        dataOf<{ id: number; record: number }>(await first.api('POST', '/receipts', { body: receiptBody({ book }) })),
      );
    }
    expect(created.map(({ id, record }) => [id, record])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
    ]);
    const second = await first.call('POST', '/_sandbox/accounts', { body: {} });
    const token = (second.body as { token: string }).token;
    const other = dataOf<{ id: number; record: number }>(
      await first.call('POST', '/rest/v1/receipts', { token, body: receiptBody() }),
    );
    expect([other.id, other.record]).toEqual([4, 1]);
  });

  it('ignores unknown fields and never lets __proto__ or constructor reach a prototype', async () => {
    const { api } = await withAccount();
    const raw = JSON.stringify(receiptBody({ colour: 'black', id: 99, status: 'disposed' }))
      .slice(0, -1)
      .concat(',"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    const response = await api('POST', '/receipts', { rawBody: raw });
    expect(response.status).toBe(201);
    const receipt = dataOf(response);
    expect(receipt).toMatchObject({ id: 1, status: 'on_hand' });
    expect(receipt).not.toHaveProperty('colour');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(receipt)).toBe(Object.prototype);
  });

  it('appends an audit entry "created" with every given field from null', async () => {
    const { api, control, token } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody({ purchase_amount: null, importer: '' }) });
    const trail = dataOf<unknown[]>(await control('GET', '/receipts/1/audit'));
    expect(trail).toEqual([
      {
        id: 1,
        action: 'created',
        changes: {
          book: { from: null, to: 'Main' },
          serial_number: { from: null, to: 'EXA0012345' },
          manufacturer: { from: null, to: 'Example Arms Co.' },
          importer: { from: null, to: '' },
          model: { from: null, to: 'EX-9 Compact' },
          type: { from: null, to: 'Pistol' },
          caliber: { from: null, to: '9mm Luger' },
          receipt_date: { from: null, to: '2025-03-14' },
          received_from: { from: null, to: 'Example Firearms Wholesale LLC' },
          ffl_license: { from: null, to: '9-99-999-01-6A-00001' },
        },
        token_id: 1,
        occurred_at: '2025-03-14T15:04:05Z',
      },
    ]);
    expect(token).toMatch(/^sbx_/);
  });

  it('keeps answers from changing the stored receipt', async () => {
    const { api } = await withAccount();
    const created = dataOf<Record<string, unknown>>(await api('POST', '/receipts', { body: receiptBody() }));
    expect(() => {
      created['model'] = 'changed';
    }).toThrow(TypeError);
    expect(dataOf(await api('GET', '/receipts/1'))).toMatchObject({ model: 'EX-9 Compact' });
  });
});

describe('GET /rest/v1/receipts/{id}', () => {
  it('answers the receipt, and 404 for an id the account does not have', async () => {
    const { api } = await withAccount();
    const created = dataOf(await api('POST', '/receipts', { body: receiptBody() }));
    expect(dataOf(await api('GET', '/receipts/1'))).toEqual(created);
    expect((await api('GET', '/receipts/2')).status).toBe(404);
    expect((await api('GET', '/receipts/0')).status).toBe(404);
    expect((await api('GET', '/receipts/99999999999999999999999')).status).toBe(404);
  });
});
