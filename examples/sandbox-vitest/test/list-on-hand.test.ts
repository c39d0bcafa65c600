import { describe, expect, it } from 'vitest';
import { listOnHand } from '../src/list-on-hand';
import { receiveFirearm } from '../src/receive-firearm';
import { sellFirearm } from '../src/sell-firearm';
import { incoming } from './support/incoming';
import { sandboxAccount } from './support/sandbox-account';

describe('listOnHand(logbook, pageSize)', () => {
  it('reads every page of the inventory, in record order, leaving out what was sold', async () => {
    const { logbook, requests } = await sandboxAccount();
    await receiveFirearm(logbook, incoming({ serialNumber: 'EXA0040001' }));
    const sold = await receiveFirearm(logbook, incoming({ serialNumber: 'EXA0040002' }));
    for (const serialNumber of ['EXA0040003', 'EXA0040004', 'EXA0040005'])
      await receiveFirearm(logbook, incoming({ serialNumber }));
    await sellFirearm(logbook, {
      receiptId: sold.receiptId,
      soldOn: '2025-04-02',
      buyerName: 'Jordan Q. Example',
      form4473Serial: 'EX-2025-000200',
      priceCents: 49_900,
    });

    const onHand = await listOnHand(logbook, 2);

    expect(onHand.map((firearm) => [firearm.record, firearm.serialNumber])).toEqual([
      [1, 'EXA0040001'],
      [3, 'EXA0040003'],
      [4, 'EXA0040004'],
      [5, 'EXA0040005'],
    ]);
    expect(onHand[0]?.description).toBe('Example Arms Co. EX-9 Compact, 9mm Luger pistol');
    // Four firearms, two to a page: the sandbox saw exactly pages 1 and 2, and no third request.
    const inventoryRequests = (await requests()).filter((request) => request.path === '/rest/v1/inventory').reverse();
    const pages = inventoryRequests.map((request) => Object.fromEntries(new URLSearchParams(request.query)));
    expect(pages).toEqual([
      { page: '1', per_page: '2' },
      { page: '2', per_page: '2' },
    ]);
  });

  it('answers an empty list for an account with nothing on hand', async () => {
    const { logbook } = await sandboxAccount();

    await expect(listOnHand(logbook)).resolves.toEqual([]);
  });
});
