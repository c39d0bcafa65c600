// The quickstart in TypeScript (docs/quickstart.md): a receiver of the service's webhooks, its
// endpoint registered, a receipt recorded and disposed of, and both deliveries verified.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LogbookClient } from '@fflkit/sdk';
import { createWebhookHandler, toNodeListener } from '@fflkit/webhooks';

// The token and the base URL come from FFLKIT_TOKEN and FFLKIT_BASE_URL.
const logbook = new LogbookClient();

// 1. A receiver: it verifies each delivery's X-SVC-Signature with the endpoint's secret, which
// it learns once the endpoint is made (the function is called at the first delivery).
let secret = '';
let disposedDelivery = (): void => undefined;
const delivered = new Promise<void>((resolve) => {
  disposedDelivery = resolve;
});
const webhooks = createWebhookHandler({
  secret: () => secret,
  on: {
    'receipt.created': (event) => {
      console.log(`Verified receipt.created: entry ${event.data.record}, serial ${event.data.serial_number}`);
    },
    'receipt.disposed': (event) => {
      console.log(`Verified receipt.disposed: to ${event.data.disposition?.disposed_to}`);
      disposedDelivery();
    },
  },
});
const receiver = createServer(toNodeListener(webhooks)).listen(0, '127.0.0.1');
await once(receiver, 'listening');
const { port } = receiver.address() as AddressInfo;

// 2. Its endpoint. The secret is in this answer only.
const { endpoint, secret: signingSecret } = await logbook.webhooks.create({
  url: `http://127.0.0.1:${port}/`,
  events: ['receipt.created', 'receipt.disposed'],
});
secret = signingSecret;

// 3. A firearm received, then sold.
const receipt = await logbook.receipts.create({
  book: 'Main',
  serial_number: 'QS0012345',
  manufacturer: 'Example Arms Co.',
  model: 'EX-9',
  type: 'Pistol',
  caliber: '9mm Luger',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
});
console.log(`Recorded as entry ${receipt.record} of the book ${receipt.book}`);
const sold = await logbook.receipts.dispose(receipt.id, {
  disposition_date: '2025-03-20',
  disposed_to: 'John Q. Example',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
});
console.log(`Disposed of: ${sold.status}, to ${sold.disposition?.disposed_to}`);

// 4. Once the disposition's delivery is verified, the endpoint goes and the receiver stops.
await delivered;
await logbook.webhooks.delete(endpoint.id);
receiver.close();
