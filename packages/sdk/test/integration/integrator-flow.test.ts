import {
  AuthenticationError,
  LogbookClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  systemClock,
  ValidationError,
  type Receipt,
} from '@fflkit/sdk';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { receiptBody } from '@fflkit/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox.stop();
});

async function client(accountType: 'dealer' | 'collector' = 'dealer') {
  const { token } = await sandbox.createAccount({ account_type: accountType });
  return { logbook: new LogbookClient({ token, baseUrl: sandbox.apiUrl }), token };
}

async function addToken(token: string, permissions: string[]): Promise<string> {
  const response = await fetch(`${sandbox.url}/_sandbox/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ permissions }),
  });
  return ((await response.json()) as { token: string }).token;
}

describe('an integrator against the sandbox', () => {
  it('creates, pages through, updates, disposes of and deletes receipts', async () => {
    const { logbook } = await client();
    expect((await logbook.books.list()).map((book) => book.name)).toEqual(['Main']);

    const created: Receipt[] = [];
    for (let i = 1; i <= 5; i++)
      created.push(await logbook.receipts.create(receiptBody({ serial_number: `SDK-${i}` })));
    expect(created.map((r) => [r.record, r.status])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 'on_hand']));

    const pages = [];
    for await (const page of logbook.receipts.iterate({ per_page: 2 }).pages())
      pages.push(page.data.map((r) => r.serial_number));
    expect(pages).toEqual([['SDK-1', 'SDK-2'], ['SDK-3', 'SDK-4'], ['SDK-5']]);
    const first = await logbook.receipts.list({ per_page: 2 });
    expect(first.meta).toMatchObject({ current_page: 1, last_page: 3, per_page: 2, total: 5 });

    const [one, two, three] = created as [Receipt, Receipt, Receipt];
    expect(await logbook.receipts.get(one.id)).toEqual(one);
    expect((await logbook.receipts.update(one.id, { model: 'EX-9 Compact OR' })).model).toBe('EX-9 Compact OR');

    const disposed = await logbook.receipts.dispose(two.id, {
      disposition_date: '2025-03-14',
      disposed_to: 'John Q. Example',
      form_4473_serial: `F-${two.id}`,
    });
    expect(disposed.status).toBe('disposed');
    expect(disposed.disposition?.disposed_to).toBe('John Q. Example');

    await logbook.receipts.delete(three.id);
    await expect(logbook.receipts.get(three.id)).rejects.toBeInstanceOf(NotFoundError);

    const onHand: string[] = [];
    for await (const r of logbook.inventory.iterate({ per_page: 200 })) onHand.push(r.serial_number);
    expect(onHand).toEqual(['SDK-1', 'SDK-4', 'SDK-5']);
    const found = await logbook.search.list({ q: 'sdk-4', field: 'serial_number' });
    expect(found.data.map((r) => r.id)).toEqual([created[3]?.id]);
    const matches: number[] = [];
    for await (const r of logbook.search.iterate({ q: 'SDK', per_page: 1 })) matches.push(r.record);
    expect(matches).toEqual([1, 2, 4, 5]);
  });

  it('creates, lists and deletes webhook endpoints, the secret shown once', async () => {
    const { logbook } = await client();
    const { endpoint, secret } = await logbook.webhooks.create({
      url: 'https://hooks.example.com/logbook',
      events: ['receipt.created'],
    });
    expect(secret).toMatch(/^whsec_/);
    expect(await logbook.webhooks.list()).toEqual([endpoint]);
    await logbook.webhooks.delete(endpoint.id);
    expect(await logbook.webhooks.list()).toEqual([]);
    await expect(logbook.webhooks.delete(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('maps 401 to AuthenticationError', async () => {
    const logbook = new LogbookClient({ token: 'sbx_not_a_token', baseUrl: sandbox.apiUrl });
    const error = await logbook.books.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).headers.get('www-authenticate')).toBe('Bearer');
  });

  it('maps 403 to PermissionDeniedError, for an ineligible account and for a missing permission', async () => {
    const { logbook: collector } = await client('collector');
    await expect(collector.books.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    const { token } = await client();
    const readOnly = new LogbookClient({ token: await addToken(token, ['read']), baseUrl: sandbox.apiUrl });
    await expect(readOnly.books.list()).resolves.toHaveLength(1);
    const error = await readOnly.receipts.create(receiptBody()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toContain('write');
  });

  it('maps 404 to NotFoundError and 422 to ValidationError with the field errors', async () => {
    const { logbook } = await client();
    await expect(logbook.receipts.get(999_999)).rejects.toBeInstanceOf(NotFoundError);
    const error = await logbook.receipts
      .create(receiptBody({ serial_number: '', book: 'Nope' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors).sort()).toEqual(['book', 'serial_number']);
  });

  it('answers a disposition with neither an address nor a Form 4473 serial with the four address fields, as the README shows', async () => {
    const { logbook } = await client();
    const receipt = await logbook.receipts.create(receiptBody({ serial_number: 'SDK-README' }));
    const error = await logbook.receipts
      .dispose(receipt.id, { disposition_date: '2025-03-14', disposed_to: 'John Q. Example' })
      .catch((e: unknown) => e);
    expect(Object.keys((error as ValidationError).errors)).toEqual(['address', 'city', 'state', 'zip']);
  });

  it('recovers a create, a disposition and a webhook creation whose answers were lost after the sandbox acted, recording each once', async () => {
    const { token } = await sandbox.createAccount();
    let drop = false;
    // Sends to the sandbox, then loses the answer of the next write while `drop` is set.
    const logbook = new LogbookClient({
      token,
      baseUrl: sandbox.apiUrl,
      // The back-off before each look-up ends at once; no attempt has a time-out to fire early.
      clock: { ...systemClock, setTimeout: (callback) => systemClock.setTimeout(callback, 0) },
      timeout: Infinity,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (!drop || init.method === 'GET') return response;
        drop = false;
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        });
      },
    });
    await logbook.receipts.create(receiptBody({ serial_number: 'SDK-R10' }));
    drop = true;
    const created = await logbook.receipts.create(
      receiptBody({ serial_number: ' SDK-R1 ', importer: '', purchase_amount: 389.5, model: 'EX-9 ' }),
    );
    expect(created).toMatchObject({ serial_number: 'SDK-R1', model: 'EX-9', record: 2 });
    const matches = await logbook.receipts.list({ serial_number: 'SDK-R1' });
    expect(matches.data.map((r) => r.serial_number)).toEqual(['SDK-R10', 'SDK-R1']);

    drop = true;
    const disposed = await logbook.receipts.dispose(created.id, {
      disposition_date: '2025-03-14',
      disposed_to: 'John Q. Example',
      form_4473_serial: 'F-R1',
    });
    expect(disposed.disposition).toMatchObject({ disposed_to: 'John Q. Example', form_4473_serial: 'F-R1' });

    drop = true;
    const { endpoint } = await logbook.webhooks.create({
      url: 'https://hooks.example.com/recovered',
      events: ['receipt.created'],
    });
    expect(await logbook.webhooks.list()).toEqual([endpoint]);
    drop = true;
    await logbook.webhooks.delete(endpoint.id);
    expect(await logbook.webhooks.list()).toEqual([]);
  });

  it('maps 429 to RateLimitError with the seconds to wait', async () => {
    const limited = await startSandbox({ rateLimit: 3 });
    try {
      const { token } = await limited.createAccount();
      // The client-side limiter is off, so the sandbox's limit answers; the wait is longer than allowed.
      const logbook = new LogbookClient({ token, baseUrl: limited.apiUrl, rateLimit: false, maxRetryAfter: 0 });
      for (let i = 0; i < 3; i++) await logbook.books.list();
      const error = await logbook.books.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
      expect((error as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
    } finally {
      await limited.stop();
    }
  });
});
