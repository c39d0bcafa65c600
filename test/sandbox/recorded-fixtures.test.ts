import { createMockLogbook } from '@fflkit/msw';
import { startDriftProxy, startSandbox } from '@fflkit/sandbox';
import { LogbookClient, type Receipt } from '@fflkit/sdk';
import { dispositionWithAddressBody, receiptBody } from '@fflkit/test-fixtures';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';

// What the drift proxy records of an integration's traffic is a fixtures file that the sandbox
// and the MSW mock both load: the books, receipts (their dispositions too) and endpoints the
// traffic showed, with fixed sandbox tokens and secrets in place of the real ones.

/** The receipts of a token's account as the integration sees them, without what differs from load to load. */
async function receiptsOf(client: LogbookClient): Promise<unknown[]> {
  const receipts: Receipt[] = [];
  for await (const receipt of client.receipts.iterate({ per_page: 200 })) receipts.push(receipt);
  return receipts.map(({ book, serial_number, status, model, purchase_amount, disposition }) => ({
    book,
    serial_number,
    status,
    model,
    purchase_amount,
    disposed_to: disposition?.disposed_to ?? null,
  }));
}

it('records the books, receipts and endpoints a proxy saw as fixtures that the sandbox and the mock load', {
  timeout: 60_000,
}, async () => {
  const service = await startSandbox({ rateLimit: 0 });
  const proxy = await startDriftProxy({ upstream: service.url, record: true });
  const { token } = await service.createAccount({ books: ['Consignment'] });
  const integration = new LogbookClient({ baseUrl: proxy.apiUrl, token, maxRetries: 0, rateLimit: false });
  const kept = await integration.receipts.create(receiptBody({ serial_number: 'REC-0001', book: 'Consignment' }));
  const sold = await integration.receipts.create(receiptBody({ serial_number: 'REC-0002' }));
  const gone = await integration.receipts.create(receiptBody({ serial_number: 'REC-0003' }));
  await integration.receipts.update(kept.id, { model: 'Corrected model' });
  await integration.receipts.dispose(sold.id, dispositionWithAddressBody({ disposed_to: 'Jane Q. Example' }));
  await integration.receipts.delete(gone.id);
  await integration.webhooks.create({
    url: 'https://hooks.example.com/logbook?key=secret-in-query',
    events: ['receipt.created'],
  });
  await integration.books.list();
  const seen = await receiptsOf(integration);
  const { fixtures, left } = await proxy.recorded();
  await proxy.stop();
  await service.stop();

  expect(left).toEqual([]);
  const text = JSON.stringify(fixtures);
  expect(text).not.toContain(token);
  expect(text).not.toContain('secret-in-query');
  const [account] = fixtures.accounts;
  expect(fixtures.accounts).toHaveLength(1);
  expect(account?.tokens).toEqual([
    { token: 'sbx_recorded000000000000000000000001', name: 'Recorded by fflkit-sandbox proxy' },
  ]);
  expect(account?.books).toEqual(['Consignment']);
  expect(account?.webhooks).toEqual([
    {
      url: 'https://hooks.example.com/logbook',
      events: ['receipt.created'],
      secret: 'whsec_recorded000000000000000000001001',
    },
  ]);
  expect(account?.receipts?.map((receipt) => receipt.serial_number)).toEqual(['REC-0001', 'REC-0002']);

  const sandbox = await startSandbox({ fixtures });
  try {
    const loaded = new LogbookClient({ baseUrl: sandbox.apiUrl, token: 'sbx_recorded000000000000000000000001' });
    expect(await receiptsOf(loaded)).toEqual(seen);
  } finally {
    await sandbox.stop();
  }

  const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1', fixtures });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const mocked = new LogbookClient({
      baseUrl: 'https://logbook.example.test/rest/v1',
      token: 'sbx_recorded000000000000000000000001',
    });
    expect(await receiptsOf(mocked)).toEqual(seen);
  } finally {
    server.close();
  }
});
