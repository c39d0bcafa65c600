import { ValidationError } from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { listOnHand } from '../src/list-on-hand';
import { receiveFirearm } from '../src/receive-firearm';
import { incoming } from './support/incoming';
import { sandboxAccount } from './support/sandbox-account';

describe('receiveFirearm(logbook, firearm)', () => {
  it('records a firearm from a licensed wholesaler as the next line of the book Main', async () => {
    const { logbook } = await sandboxAccount();

    const first = await receiveFirearm(logbook, incoming({ serialNumber: 'EXA0030001' }));
    const second = await receiveFirearm(logbook, incoming({ serialNumber: 'EXA0030002' }));

    expect([first, second]).toMatchObject([
      { book: 'Main', record: 1 },
      { book: 'Main', record: 2 },
    ]);
    await expect(logbook.receipts.get(first.receiptId)).resolves.toMatchObject({
      status: 'on_hand',
      serial_number: 'EXA0030001',
      manufacturer: 'Example Arms Co.',
      type: 'Pistol',
      purchase_amount: 389.5,
      received_from: 'Example Firearms Wholesale LLC',
      ffl_license: '9-99-999-01-6A-00001',
      address: null,
    });
  });

  it("records a firearm bought from a private seller with the seller's address instead of a license", async () => {
    const { logbook } = await sandboxAccount();
    const from = {
      name: 'Casey R. Example',
      street: '742 Example Ave',
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
    } as const;

    const { receiptId } = await receiveFirearm(logbook, incoming({ kind: 'Rifle', caliber: '.308 Win', from }));

    await expect(logbook.receipts.get(receiptId)).resolves.toMatchObject({
      received_from: 'Casey R. Example',
      ffl_license: null,
      address: '742 Example Ave',
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
    });
  });

  it('records into another book of the account when told which', async () => {
    const { logbook } = await sandboxAccount({ books: ['Consignment'] });

    await expect(receiveFirearm(logbook, incoming(), 'Consignment')).resolves.toMatchObject({
      book: 'Consignment',
      record: 1,
    });
  });

  it("surfaces the service's 422 as the SDK's ValidationError, keyed by the service's fields, and records nothing", async () => {
    const { logbook } = await sandboxAccount();
    const from = {
      name: 'Casey R. Example',
      street: '742 Example Ave',
      city: 'Springfield',
      state: 'IL',
      zip: '6270',
    } as const;

    const refused = await receiveFirearm(logbook, incoming({ receivedOn: '2999-01-01', from })).catch(
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(ValidationError);
    const { status, errors } = refused as ValidationError;
    expect(status).toBe(422);
    expect(Object.keys(errors).sort()).toEqual(['receipt_date', 'zip']);
    await expect(listOnHand(logbook)).resolves.toEqual([]);
  });
});
