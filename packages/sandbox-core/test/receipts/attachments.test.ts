import { describe, expect, it } from 'vitest';
import { dataOf, errorsOf, receiptBody, withAccount } from '../harness/harness';

async function withReceipt() {
  const world = await withAccount();
  await world.api('POST', '/receipts', { body: receiptBody() });
  world.clock.ms += 60_000;
  return world;
}

describe('POST /_sandbox/receipts/{id}/documents', () => {
  it('attaches a document without audit entry, event or new updated_at', async () => {
    const { control, api, core } = await withReceipt();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    const response = await control('POST', '/receipts/1/documents', {
      body: { name: 'bill-of-sale.pdf', mime_type: 'application/pdf', size: 48213 },
    });
    const document = {
      id: 1,
      name: 'bill-of-sale.pdf',
      mime_type: 'application/pdf',
      size: 48213,
      url: 'https://sandbox.invalid/documents/1',
      created_at: '2025-03-14T15:05:05Z',
    };
    expect(response).toEqual({ status: 201, headers: {}, body: { data: document } });
    await control('POST', '/receipts/1/documents', {
      body: { name: 'b', mime_type: 'image/png', size: 0, url: 'https://files.example.com/b' },
    });
    const receipt = dataOf<{ documents: { url: string }[]; updated_at: string }>(await api('GET', '/receipts/1'));
    expect(receipt.documents[0]).toEqual(document);
    expect(receipt.documents[1]?.url).toBe('https://files.example.com/b');
    expect(receipt.updated_at).toBe('2025-03-14T15:04:05Z');
    expect(dataOf<unknown[]>(await control('GET', '/receipts/1/audit'))).toHaveLength(1);
    expect(core.snapshot().deliveries).toEqual([]);
  });

  it('validates the document and answers 404 for an unknown receipt', async () => {
    const { control } = await withReceipt();
    expect(
      errorsOf(await control('POST', '/receipts/1/documents', { body: { mime_type: 'pdf', size: -1, url: 'nope' } })),
    ).toEqual({
      name: ['The name field is required.'],
      mime_type: ['The mime type field format is invalid.'],
      size: ['The size field must be at least 0.'],
      url: ['The url field must be a valid URL.'],
    });
    expect((await control('POST', '/receipts/2/documents', { body: {} })).status).toBe(404);
  });
});

describe('PUT /_sandbox/receipts/{id}/e4473', () => {
  const e4473 = {
    form_4473_serial: '2025-000123',
    transferee_name: 'John Q. Example',
    nics_transaction_number: '100EXAMPLE01',
    nics_result: 'proceed',
    completed_at: '2025-04-02T11:10:00-05:00',
  };

  it('sets and replaces the E4473 data, in UTC, without audit entry or new updated_at', async () => {
    const { control } = await withReceipt();
    const response = await control('PUT', '/receipts/1/e4473', { body: e4473 });
    expect(response.status).toBe(200);
    expect(dataOf(response)).toMatchObject({
      e4473: { ...e4473, completed_at: '2025-04-02T16:10:00Z' },
      updated_at: '2025-03-14T15:04:05Z',
    });
    const replaced = await control('PUT', '/receipts/1/e4473', {
      body: { ...e4473, nics_transaction_number: null, nics_result: 'denied' },
    });
    expect(dataOf(replaced)).toMatchObject({ e4473: { nics_transaction_number: null, nics_result: 'denied' } });
    expect(dataOf<unknown[]>(await control('GET', '/receipts/1/audit'))).toHaveLength(1);
  });

  it('validates the data', async () => {
    const { control } = await withReceipt();
    const response = await control('PUT', '/receipts/1/e4473', {
      body: {
        ...e4473,
        nics_result: 'maybe',
        completed_at: '2025-04-02 16:10',
        nics_transaction_number: 'x'.repeat(51),
      },
    });
    expect(Object.keys(errorsOf(response))).toEqual(['nics_transaction_number', 'nics_result', 'completed_at']);
  });
});

describe('GET /_sandbox/receipts/{id}/audit', () => {
  it('answers 404 only for a receipt the account never had', async () => {
    const { control, api } = await withReceipt();
    await api('DELETE', '/receipts/1');
    expect((await control('GET', '/receipts/1/audit')).status).toBe(200);
    expect((await control('GET', '/receipts/2/audit')).status).toBe(404);
  });
});
