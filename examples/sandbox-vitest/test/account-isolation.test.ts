import { expect, it } from 'vitest';
import { listOnHand } from '../src/list-on-hand';
import { receiveFirearm } from '../src/receive-firearm';
import { incoming } from './support/incoming';
import { sandboxAccount } from './support/sandbox-account';

// Every test file runs against the one sandbox of the global setup, in parallel workers: each
// test's own account is what keeps the others' records out of its assertions.

it('an account sees only its own firearms in the shared sandbox', async () => {
  const [store, otherStore] = await Promise.all([
    sandboxAccount(),
    sandboxAccount({ name: 'Another Example Store LLC' }),
  ]);
  await receiveFirearm(store.logbook, incoming({ serialNumber: 'EXA0050001' }));

  await expect(listOnHand(store.logbook)).resolves.toMatchObject([{ serialNumber: 'EXA0050001', record: 1 }]);
  await expect(listOnHand(otherStore.logbook)).resolves.toEqual([]);
  await expect(receiveFirearm(otherStore.logbook, incoming())).resolves.toMatchObject({ record: 1 });
});
