import { describe, expect, it } from 'vitest';
import {
  dataOf,
  dispositionBody,
  dispositionWithAddressBody,
  errorsOf,
  receiptBody,
  withAccount,
} from '../harness/harness';

async function withReceipt() {
  const world = await withAccount();
  await world.api('POST', '/receipts', { body: receiptBody({ receipt_date: '2025-03-10' }) });
  world.clock.ms += 3_600_000;
  return world;
}

describe('POST /rest/v1/receipts/{id}/dispose', () => {
  it('records the disposition, every field present, and makes the receipt disposed', async () => {
    const { api, control } = await withReceipt();
    const response = await api('POST', '/receipts/1/dispose', {
      body: dispositionBody({ disposition_date: '2025-03-12' }),
    });
    expect(response.status).toBe(200);
    const receipt = dataOf<{ disposition: unknown }>(response);
    expect(receipt).toMatchObject({ status: 'disposed', updated_at: '2025-03-14T16:04:05Z' });
    const disposition = {
      disposition_date: '2025-03-12',
      disposed_to: 'John Q. Example',
      address: null,
      city: null,
      state: null,
      zip: null,
      sold_price: 549.99,
      nics_ccw: '100EXAMPLE01',
      form_4473_serial: '2025-000123',
      created_at: '2025-03-14T16:04:05Z',
    };
    expect(receipt.disposition).toEqual(disposition);
    expect(Object.keys(receipt.disposition as object)).toEqual(Object.keys(disposition));
    const trail = dataOf<{ action: string; changes: unknown }[]>(await control('GET', '/receipts/1/audit'));
    expect(trail[1]).toMatchObject({
      action: 'disposed',
      changes: { status: { from: 'on_hand', to: 'disposed' }, disposition: { from: null, to: disposition } },
    });
  });

  it('accepts the recipient address instead of a Form 4473 serial', async () => {
    const { api } = await withReceipt();
    expect((await api('POST', '/receipts/1/dispose', { body: dispositionWithAddressBody() })).status).toBe(200);
  });

  it('answers 422 errors.status for a disposed receipt, alongside the other errors', async () => {
    const { api } = await withReceipt();
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    const again = await api('POST', '/receipts/1/dispose', {
      body: dispositionBody({ form_4473_serial: 'other', sold_price: -1 }),
    });
    expect(again.body).toEqual({
      message: 'The receipt has already been disposed. (and 1 more error)',
      errors: {
        status: ['The receipt has already been disposed.'],
        sold_price: ['The sold price field must be at least 0.'],
      },
    });
  });

  it('needs the dates in order: not before the receipt date, not after today', async () => {
    const { api } = await withReceipt();
    expect(
      errorsOf(await api('POST', '/receipts/1/dispose', { body: dispositionBody({ disposition_date: '2025-03-09' }) })),
    ).toEqual({
      disposition_date: ['The disposition date field must be a date after or equal to the receipt date.'],
    });
    expect(
      errorsOf(await api('POST', '/receipts/1/dispose', { body: dispositionBody({ disposition_date: '2025-03-15' }) })),
    ).toEqual({
      disposition_date: ['The disposition date field must be a date before or equal to today.'],
    });
  });

  it('needs the disposition date and recipient, then the address or a Form 4473 serial', async () => {
    const { api } = await withReceipt();
    expect(
      errorsOf(await api('POST', '/receipts/1/dispose', { body: { address: '1 Way', nics_ccw: 'x'.repeat(51) } })),
    ).toEqual({
      disposition_date: ['The disposition date field is required.'],
      disposed_to: ['The disposed to field is required.'],
      city: ['The city field is required when form 4473 serial is not present.'],
      state: ['The state field is required when form 4473 serial is not present.'],
      zip: ['The zip field is required when form 4473 serial is not present.'],
      nics_ccw: ['The nics ccw field must not be greater than 50 characters.'],
    });
  });

  it('keeps Form 4473 serials unique within the account, deleted receipts included', async () => {
    const { api } = await withReceipt();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/1');
    expect(
      errorsOf(
        await api('POST', '/receipts/2/dispose', { body: dispositionBody({ form_4473_serial: ' 2025-000123 ' }) }),
      ),
    ).toEqual({
      form_4473_serial: ['The form 4473 serial has already been taken.'],
    });
    const other = await withReceipt();
    expect((await other.api('POST', '/receipts/1/dispose', { body: dispositionBody() })).status).toBe(200);
  });

  it('moves the receipt from on hand to disposed in the counts', async () => {
    const { api } = await withReceipt();
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    expect(dataOf(await api('GET', '/books'))).toMatchObject([
      { record_count: 1, on_hand_count: 0, disposed_count: 1 },
    ]);
  });
});
