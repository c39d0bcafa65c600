import { LogbookClient, systemClock, ValidationError } from '@fflkit/sdk';
import { receiptBody } from '@fflkit/test-fixtures';
import { verifySignature } from '@fflkit/webhooks';
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// By the package's name, as an application imports it: the `browser` export condition picks the
// web build, which reads no file and imports no node: module.
import { createMockLogbook, type SandboxFixtures } from '@fflkit/msw';

// The contract's sample receipt, under a serial number of this file's own.
const receipt = receiptBody({ serial_number: 'EXA-000123' });

const baseUrl = 'https://logbook.example.test/rest/v1';
const TOKEN = 'sbx_browserfixture00000000000001';
const fixtures: SandboxFixtures = {
  accounts: [
    {
      name: 'Example Storefront LLC',
      books: ['Consignment'],
      tokens: [{ token: TOKEN }],
      receipts: [{ ...receipt, serial_number: 'FIX-000001' }],
    },
  ],
};
const mock = createMockLogbook({ baseUrl, fixtures });
const worker = setupWorker(...mock.handlers);

beforeAll(async () => {
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
});
afterEach(() => mock.reset());
afterAll(() => worker.stop());

describe('createMockLogbook(options) under setupWorker in Chromium', () => {
  it('registers MSW’s worker script, which then controls the page', () => {
    // Proves that the service worker answers below, not MSW's in-page fallback.
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(`${location.origin}/mockServiceWorker.js`);
  });

  it('loads a fixtures object: its fixed token answers at once, and reset() goes back to it', async () => {
    const logbook = new LogbookClient({ baseUrl, token: TOKEN });
    expect((await logbook.books.list()).map((book) => [book.name, book.record_count])).toEqual([
      ['Main', 1],
      ['Consignment', 0],
    ]);
    await logbook.receipts.create(receipt);
    mock.reset();
    expect((await logbook.receipts.list()).data.map((row) => row.serial_number)).toEqual(['FIX-000001']);
  });

  it('throws a TypeError for a fixtures path: the web build reads no file', () => {
    expect(() => createMockLogbook({ baseUrl, fixtures: 'fixtures.yaml' })).toThrow(
      /^\[@fflkit\/msw\] createMockLogbook\(\): fixtures is a path \("fixtures\.yaml"\), which only the Node build reads/,
    );
  });

  it('answers the SDK: logbook.receipts.create() resolves with the receipt, list() and get() find it', async () => {
    const { token } = mock.createAccount();
    const logbook = new LogbookClient({ baseUrl, token });

    const created = await logbook.receipts.create(receipt);
    expect(created).toMatchObject({ serial_number: 'EXA-000123', book: 'Main' });

    const page = await logbook.receipts.list({ per_page: 10 });
    expect(page.data.map((row) => row.id)).toEqual([created.id]);
    expect(await logbook.receipts.get(created.id)).toEqual(created);
  });

  it('carries out fault rules in the browser: a dropped connection is a network error, and the SDK recovers the receipt', async () => {
    const { token } = mock.createAccount();
    await mock.faults.add(token, { operation: 'createReceipt', action: 'drop', after_acting: true, times: 1 });
    await mock.faults.add(token, { operation: 'listBooks', action: 'status', status: 503, times: 1 });
    const books = await fetch(`${baseUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
    expect([books.status, books.headers.get('x-sandbox-fault')]).toEqual([503, '2']);
    // Recovery on (the default): the look-up after the lost answer finds the receipt. The back-off
    // before it ends at once; without a time-out, it is the clock's only wait.
    const clock = { ...systemClock, setTimeout: (callback: () => void) => systemClock.setTimeout(callback, 0) };
    const logbook = new LogbookClient({ baseUrl, token, rateLimit: false, clock, timeout: Infinity });
    const created = await logbook.receipts.create({ ...receipt, serial_number: 'DROP-000001' });
    const posts = await mock.requests(token, { operation: 'createReceipt' });
    expect(posts.map((entry) => [entry.status, entry.fault?.action ?? null])).toEqual([[0, 'drop']]);
    expect((await logbook.receipts.list()).data).toEqual([created]);
  });

  it('answers an invalid receipt with a 422 that the SDK throws as a ValidationError', async () => {
    const { token } = mock.createAccount();
    const logbook = new LogbookClient({ baseUrl, token });

    const error: unknown = await logbook.receipts
      .create({ ...receipt, serial_number: '' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    expect(Object.keys((error as ValidationError).errors)).toContain('serial_number');
  });

  it('captures a webhook delivery whose signature the web build of @fflkit/webhooks verifies', async () => {
    const { token } = mock.createAccount();
    const logbook = new LogbookClient({ baseUrl, token });
    const { secret } = await logbook.webhooks.create({
      url: 'https://hooks.example.test/in',
      events: ['receipt.created'],
    });

    await logbook.receipts.create(receipt);

    expect(mock.deliveries).toHaveLength(1);
    const [delivery] = mock.deliveries;
    expect(delivery?.headers['X-SVC-Event']).toBe('receipt.created');
    const signature = delivery?.headers['X-SVC-Signature'];
    expect(await verifySignature(secret, delivery?.body ?? '', signature)).toBe(true);
    expect(await verifySignature(`${secret}-wrong`, delivery?.body ?? '', signature)).toBe(false);
  });
});
