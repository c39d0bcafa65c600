import { expect, it } from 'vitest';
import { countOnHandByType } from '../src/count-on-hand-by-type';
import { receiveShipment } from '../src/receive-shipment';
import { mock, newClient } from './mock-service';

it('countOnHandByType(logbook) counts across pages and leaves out disposed firearms', async () => {
  const { token } = mock.createAccount();
  const logbook = newClient(token);
  const types = ['Pistol', 'Pistol', 'Rifle', 'Shotgun', 'Pistol'] as const;
  const { recorded } = await receiveShipment(logbook, {
    receivedOn: '2025-03-14',
    supplierName: 'Example Firearms Wholesale LLC',
    supplierLicense: '9-99-999-01-6A-00001',
    items: types.map((type, index) => ({
      serialNumber: `EXA-2000${index}`,
      manufacturer: 'Example Arms Co.',
      model: 'Model 1',
      type,
      caliber: '9mm Luger',
    })),
  });
  const shotgun = recorded.find((receipt) => receipt.type === 'Shotgun');
  if (shotgun === undefined) throw new Error('the shotgun was recorded');
  await logbook.receipts.dispose(shotgun.id, {
    disposition_date: '2025-03-15',
    disposed_to: 'Jordan Example',
    form_4473_serial: 'F4473-0001',
  });

  // Two per page: the four on hand take two pages, as the service's request log shows.
  expect(await countOnHandByType(logbook, 2)).toEqual({ Pistol: 3, Rifle: 1 });
  const reads = await mock.requests(token, { operation: 'listInventory' });
  expect(reads.map((request) => request.query).reverse()).toEqual(['per_page=2&page=1', 'per_page=2&page=2']);
});
