import { constructEvent } from '@fflkit/webhooks';
import { expect, it } from 'vitest';
import { receiveShipment } from '../src/receive-shipment';
import { subscribeToDispositions } from '../src/subscribe-to-dispositions';
import { mock, newClient } from './mock-service';

const POS_URL = 'https://pos.example.test/hooks/logbook';

it('subscribeToDispositions(logbook, url) gets one signed receipt.disposed delivery per sale', async () => {
  const logbook = newClient();
  const secret = await subscribeToDispositions(logbook, POS_URL);
  const { recorded } = await receiveShipment(logbook, {
    receivedOn: '2025-03-14',
    supplierName: 'Example Firearms Wholesale LLC',
    supplierLicense: '9-99-999-01-6A-00001',
    items: [
      {
        serialNumber: 'EXA-300001',
        manufacturer: 'Example Arms Co.',
        model: 'EX-9',
        type: 'Pistol',
        caliber: '9mm Luger',
      },
    ],
  });
  // Receiving made no delivery: the endpoint listens to dispositions only.
  expect(mock.deliveries).toEqual([]);

  const [pistol] = recorded;
  if (pistol === undefined) throw new Error('the pistol was recorded');
  await logbook.receipts.dispose(pistol.id, {
    disposition_date: '2025-03-20',
    disposed_to: 'Jordan Example',
    form_4473_serial: 'F4473-0002',
  });

  expect(mock.deliveries.map((delivery) => delivery.url)).toEqual([POS_URL]);
  const [delivery] = mock.deliveries;
  if (delivery === undefined) throw new Error('one delivery was captured');
  const event = await constructEvent(delivery.body, delivery.headers, { secret });
  if (event.event !== 'receipt.disposed') throw new Error(`expected receipt.disposed, got ${event.event}`);
  expect(event.data.serial_number).toBe('EXA-300001');
  expect(event.data.disposition.disposed_to).toBe('Jordan Example');

  // A receiver holding another secret refuses the very same delivery.
  await expect(constructEvent(delivery.body, delivery.headers, { secret: `${secret}x` })).rejects.toMatchObject({
    reason: 'signature_mismatch',
  });
});
