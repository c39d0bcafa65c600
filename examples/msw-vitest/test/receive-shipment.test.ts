import { AuthenticationError, InternalServerError } from '@fflkit/sdk';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { receiveShipment, type Shipment } from '../src/receive-shipment';
import { BASE_URL, mock, newClient, recoveringClient, server } from './mock-service';

const shipment: Shipment = {
  receivedOn: '2025-03-14',
  supplierName: 'Example Firearms Wholesale LLC',
  supplierLicense: '9-99-999-01-6A-00001',
  items: [
    {
      serialNumber: 'EXA-100001',
      manufacturer: 'Example Arms Co.',
      model: 'EX-9 Compact',
      type: 'Pistol',
      caliber: '9mm Luger',
    },
    {
      serialNumber: 'EXA-100002',
      manufacturer: 'Example Arms Co.',
      model: 'EX-15',
      type: 'Rifle',
      caliber: '5.56 NATO',
    },
  ],
};

describe('receiveShipment(logbook, shipment)', () => {
  it('records every firearm as an acquisition in the book Main, numbered in order', async () => {
    const logbook = newClient();
    const { recorded, rejected } = await receiveShipment(logbook, shipment);

    expect(rejected).toEqual([]);
    expect(recorded.map((receipt) => [receipt.record, receipt.serial_number, receipt.status])).toEqual([
      [1, 'EXA-100001', 'on_hand'],
      [2, 'EXA-100002', 'on_hand'],
    ]);
    const page = await logbook.receipts.list({ book: 'Main' });
    expect(page.meta.total).toBe(2);
  });

  it('sets aside a firearm the service refuses, with its reasons, and records the rest', async () => {
    const logbook = newClient();
    const [pistol, rifle] = shipment.items;
    if (pistol === undefined || rifle === undefined) throw new Error('the shipment fixture has two items');
    const { recorded, rejected } = await receiveShipment(logbook, {
      ...shipment,
      items: [{ ...pistol, serialNumber: '' }, rifle],
    });

    expect(recorded.map((receipt) => receipt.serial_number)).toEqual(['EXA-100002']);
    expect(rejected).toHaveLength(1);
    expect(Object.keys(rejected[0]?.errors ?? {})).toEqual(['serial_number']);
  });

  it('refuses a receipt dated in the future on the account clock', async () => {
    const logbook = newClient();
    const { rejected } = await receiveShipment(logbook, { ...shipment, receivedOn: '2999-01-01' });
    expect(rejected.map((item) => Object.keys(item.errors))).toEqual([['receipt_date'], ['receipt_date']]);
  });

  it('stops at the first firearm when the token has been revoked, recording nothing', async () => {
    const { token } = mock.createAccount();
    const pos = await fetch(new URL('/_sandbox/tokens', BASE_URL), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: ['read', 'write'], name: 'Point of sale' }),
    });
    const { data: record, token: posToken } = (await pos.json()) as { data: { id: number }; token: string };
    await fetch(new URL(`/_sandbox/tokens/${record.id}`, BASE_URL), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });

    await expect(receiveShipment(newClient(posToken), shipment)).rejects.toBeInstanceOf(AuthenticationError);
    expect((await newClient(token).receipts.list()).meta.total).toBe(0);
  });

  it('records each firearm once when the service records one and its answer is lost', async () => {
    const { token } = mock.createAccount();
    // The first firearm is recorded, then the connection drops: the client cannot tell whether it was.
    await mock.faults.add(token, { operation: 'createReceipt', action: 'drop', after_acting: true, times: 1 });
    const { recorded } = await receiveShipment(recoveringClient(token), shipment);

    expect(recorded.map((receipt) => [receipt.record, receipt.serial_number])).toEqual([
      [1, 'EXA-100001'],
      [2, 'EXA-100002'],
    ]);
    // One POST per firearm: the SDK looked the lost one up rather than send it again.
    const posts = await mock.requests(token, { operation: 'createReceipt' });
    expect(
      posts.map((request) => [request.body?.serial_number, request.status, request.fault?.after_acting ?? null]),
    ).toEqual([
      ['EXA-100002', 201, null],
      ['EXA-100001', 0, true],
    ]);
    expect(
      await mock.requests(token, { operation: 'createReceipt', body: { serial_number: 'EXA-100001' } }),
    ).toHaveLength(1);
  });

  it('stops when the service fails, keeping what was recorded before', async () => {
    const logbook = newClient();
    let calls = 0;
    // The second POST /receipts fails as an outage would; the mock answers everything else.
    server.use(
      mock.http.post('/receipts', () => {
        calls += 1;
        return calls === 2 ? HttpResponse.json({ message: 'Service unavailable.' }, { status: 503 }) : undefined;
      }),
    );
    await expect(receiveShipment(logbook, shipment)).rejects.toBeInstanceOf(InternalServerError);
    const page = await logbook.receipts.list();
    expect(page.data.map((receipt) => receipt.serial_number)).toEqual(['EXA-100001']);
  });
});
