import { ValidationError } from '@boundbook/sdk';
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

describe('sellFirearm(bb, sale)', () => {
  it('records the disposition with the Form 4473 serial in place of the buyer\'s address', async () => {
    const { bb } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(bb, incoming());

    await sellFirearm(bb, sale(receiptId));

    await expect(bb.receipts.get(receiptId)).resolves.toMatchObject({
      status: 'disposed',
      disposition: {
        disposition_date: '2025-04-02',
        disposed_to: 'Jordan Q. Example',
        form_4473_serial: 'EX-2025-000123',
        sold_price: 529.99,
        address: null,
      },
    });
    await expect(listOnHand(bb)).resolves.toEqual([]);
  });

  it('refuses to sell a firearm twice: ValidationError on errors.status', async () => {
    const { bb } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(bb, incoming());
    await sellFirearm(bb, sale(receiptId));

    const refused = await sellFirearm(bb, sale(receiptId, { form4473Serial: 'EX-2025-000124' })).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ValidationError);
    expect(Object.keys((refused as ValidationError).errors)).toEqual(['status']);
  });

  it('refuses a Form 4473 serial already used in the account', async () => {
    const { bb } = await sandboxAccount();
    const first = await receiveFirearm(bb, incoming());
    const second = await receiveFirearm(bb, incoming());
    await sellFirearm(bb, sale(first.receiptId));

    const refused = await sellFirearm(bb, sale(second.receiptId)).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ValidationError);
    expect(Object.keys((refused as ValidationError).errors)).toEqual(['form_4473_serial']);
    await expect(bb.receipts.get(second.receiptId)).resolves.toMatchObject({ status: 'on_hand' });
  });

  it('refuses a sale dated before the firearm was received', async () => {
    const { bb } = await sandboxAccount();
    const { receiptId } = await receiveFirearm(bb, incoming({ receivedOn: '2025-03-14' }));

    await expect(sellFirearm(bb, sale(receiptId, { soldOn: '2025-03-13' }))).rejects.toMatchObject({
      name: 'ValidationError',
      errors: { disposition_date: [expect.any(String)] },
    });
  });
});
