import { ValidationError } from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { listOnHand } from '../src/list-on-hand';
import { receiveFirearm } from '../src/receive-firearm';
import { sellFirearm, type CounterSale } from '../src/sell-firearm';
import { incoming } from './support/incoming';
import { sandboxAccount } from './support/sandbox-account';

function sale(receiptId: number, overrides: Partial<CounterSale> = {}): CounterSale {
  return {
    receiptId,
    soldOn: '2025-04-02',
    buyerName: 'Jordan Q. Example',
    form4473Serial: 'EX-2025-000123',
    priceCents: 52_999,
    ...overrides,
  };
}

describe('sellFirearm(logbook, sale)', () => {
  it("records the disposition with the Form 4473 serial in place of the buyer's address", async () => {
    const { logbook } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(logbook, incoming());

    await sellFirearm(logbook, sale(receiptId));

    await expect(logbook.receipts.get(receiptId)).resolves.toMatchObject({
      status: 'disposed',
      disposition: {
        disposition_date: '2025-04-02',
        disposed_to: 'Jordan Q. Example',
        form_4473_serial: 'EX-2025-000123',
        sold_price: 529.99,
        address: null,
      },
    });
    await expect(listOnHand(logbook)).resolves.toEqual([]);
  });

  it('refuses to sell a firearm twice: ValidationError on errors.status', async () => {
    const { logbook } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(logbook, incoming());
    await sellFirearm(logbook, sale(receiptId));

    const refused = await sellFirearm(logbook, sale(receiptId, { form4473Serial: 'EX-2025-000124' })).catch(
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(ValidationError);
    expect(Object.keys((refused as ValidationError).errors)).toEqual(['status']);
  });

  it('refuses a Form 4473 serial already used in the account', async () => {
    const { logbook } = await sandboxAccount();
    const first = await receiveFirearm(logbook, incoming());
    const second = await receiveFirearm(logbook, incoming());
    await sellFirearm(logbook, sale(first.receiptId));

    const refused = await sellFirearm(logbook, sale(second.receiptId)).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ValidationError);
    expect(Object.keys((refused as ValidationError).errors)).toEqual(['form_4473_serial']);
    await expect(logbook.receipts.get(second.receiptId)).resolves.toMatchObject({ status: 'on_hand' });
  });

  it('refuses a sale dated before the firearm was received', async () => {
    const { logbook } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(logbook, incoming({ receivedOn: '2025-03-14' }));

    await expect(sellFirearm(logbook, sale(receiptId, { soldOn: '2025-03-13' }))).rejects.toMatchObject({
      name: 'ValidationError',
      errors: { disposition_date: [expect.any(String)] },
    });
  });
});
