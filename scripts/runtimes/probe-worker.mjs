// The code under test in each runtime, as a Fetch handler: Deno.serve and Bun.serve serve it
// unbundled (serve-probe.mjs), and workerd runs it bundled by esbuild under miniflare. It imports
// the built packages, as an integrator's code does:
//
// - POST /probe {apiUrl, token}: with @fflkit/sdk, registers an endpoint for receipt.created
//   at this server's /webhooks, creates a receipt and reads it back; answers what it got.
// - POST /webhooks: the web build of @fflkit/webhooks, with the endpoint's secret, receiving
//   the sandbox's real deliveries; it answers as the library does.
// - GET /received: the receipt.created events its handler processed, with their delivery ids.
import { LogbookClient } from '@fflkit/sdk';
import { createWebhookHandler } from '@fflkit/webhooks/web';

const received = [];
let webhooks;

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/probe' && request.method === 'POST') return probe(request);
    if (pathname === '/webhooks') {
      if (webhooks === undefined)
        return Response.json({ message: 'POST /probe first: the endpoint is not registered yet.' }, { status: 503 });
      return webhooks.handle(request);
    }
    if (pathname === '/received') return Response.json(received);
    return Response.json({ message: `No route ${request.method} ${pathname}.` }, { status: 404 });
  },
};

async function probe(request) {
  const { apiUrl, token, serialNumber } = await request.json();
  // Both options given: an edge runtime has no environment to read them from, and Deno runs
  // without --allow-env here.
  const logbook = new LogbookClient({ baseUrl: apiUrl, token });
  const { endpoint, secret } = await logbook.webhooks.create({
    url: new URL('/webhooks', request.url).href,
    events: ['receipt.created'],
  });
  webhooks = createWebhookHandler({
    secret,
    on: {
      'receipt.created': (event, { deliveryId }) => {
        received.push({ deliveryId, receiptId: event.data.id, serialNumber: event.data.serial_number });
      },
    },
  });
  const created = await logbook.receipts.create({
    book: 'Main',
    serial_number: serialNumber,
    manufacturer: 'Example Arms Co.',
    model: 'EX-9 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    receipt_date: '2025-03-14',
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
  });
  const read = await logbook.receipts.get(created.id);
  return Response.json({ userAgent: navigator.userAgent, webhookId: endpoint.id, created, read });
}
