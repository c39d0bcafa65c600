import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LogbookClient } from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { signPayload } from '@fflkit/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExpressReceiver } from '../src/create-express-receiver';
import { createInventory } from '../src/inventory';
import { createNodeReceiver } from '../src/create-node-receiver';
import type { ReceiverOptions } from '../src/create-receiver-handler';
import { createFirearmLog } from '../src/firearm-log';
import { acquisition } from './support/acquisition';

// The service does not promise the order of deliveries. The receiver is fed the real events of a
// receipt's whole life, signed, in reverse order on purpose, and must end where the life ended.

const SECRET = 'whsec_0rder0f3vents1sn0tguaranteed0000000';

let sandbox: RunningSandbox;
/** The bodies of a receipt's life as the sandbox sent them, in the order the events happened. */
let bodies: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0 });
  const received: string[] = [];
  const capture = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((listening) => capture.listen(0, '127.0.0.1', listening));
  const { token } = await sandbox.createAccount();
  const logbook = new LogbookClient({ baseUrl: sandbox.apiUrl, token, rateLimit: false });
  await logbook.webhooks.create({ url: `http://127.0.0.1:${(capture.address() as AddressInfo).port}/`, events: ['*'] });
  const receipt = await logbook.receipts.create(acquisition());
  await logbook.receipts.update(receipt.id, { model: 'EX-9 Compact OR' });
  await logbook.receipts.dispose(receipt.id, {
    disposition_date: '2025-03-14',
    disposed_to: 'John Q. Example',
    form_4473_serial: 'F-1',
  });
  await logbook.receipts.delete(receipt.id);
  await vi.waitFor(() => expect(received).toHaveLength(4), { timeout: 4000, interval: 10 });
  capture.closeAllConnections();
  capture.close();
  // Sorted by the time each event happened, whatever order the deliveries arrived in.
  bodies = received.sort((a, b) => Date.parse(JSON.parse(a).timestamp) - Date.parse(JSON.parse(b).timestamp));
});

afterAll(async () => {
  await sandbox?.stop();
});

/** Posts `body` to the receiver as the service would: signed, with a delivery id of its own. */
async function deliver(listener: RequestListener, body: string, id: number): Promise<number> {
  const server = createServer(listener);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const event = (JSON.parse(body) as { event: string }).event;
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-svc-event': event,
        'x-svc-delivery': `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
        'x-svc-signature': await signPayload(SECRET, body),
      },
      body,
    });
    return response.status;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe.each([
  ['Express', createExpressReceiver],
  ['node:http', createNodeReceiver],
] as const)(
  "the %s receiver, fed a receipt's events in reverse order",
  (_name, create: (options: ReceiverOptions) => RequestListener) => {
    it('ends with the receipt deleted, leaving no ghost item, and applies only the newest event', async () => {
      expect(bodies.map((body) => (JSON.parse(body) as { event: string }).event)).toEqual([
        'receipt.created',
        'receipt.updated',
        'receipt.disposed',
        'receipt.deleted',
      ]);
      const inventory = createInventory();
      const log = createFirearmLog();
      const listener = create({ secret: SECRET, log, inventory });
      const reversed = [...bodies].reverse();
      for (const [index, body] of reversed.entries()) expect(await deliver(listener, body, index)).toBe(200);
      expect(inventory.onHand()).toEqual([]);
      expect(inventory.get(1)).toMatchObject({ status: 'deleted' });
      expect(log.entries.map((entry) => entry.summary.endsWith('(older than what is known: not applied)'))).toEqual([
        false,
        true,
        true,
        true,
      ]);
    });

    it('in the order they happened, goes through every state', async () => {
      const inventory = createInventory();
      const listener = create({ secret: SECRET, log: createFirearmLog(), inventory });
      const states: (string | undefined)[] = [];
      for (const [index, body] of bodies.entries()) {
        await deliver(listener, body, index);
        states.push(inventory.get(1)?.status);
      }
      expect(states).toEqual(['on_hand', 'on_hand', 'disposed', 'deleted']);
    });

    it('keeps the newer state when a correction arrives after the disposition it preceded', async () => {
      const inventory = createInventory();
      const listener = create({ secret: SECRET, log: createFirearmLog(), inventory });
      const [created, updated, disposed] = bodies;
      for (const [index, body] of [created!, disposed!, updated!].entries()) await deliver(listener, body, index);
      expect(inventory.onHand()).toEqual([]);
      expect(inventory.get(1)).toMatchObject({ status: 'disposed' });
    });
  },
);
