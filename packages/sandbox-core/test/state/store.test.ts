import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import type { CoreChange, CoreChangeSet } from '../../src/state/records';
import { CoreStore } from '../../src/state/store';
import type { Activity } from '../../src/state/store';
import { dataOf, dispositionBody, receiptBody, START, withAccount } from '../harness/harness';

/** Each change as `op collection id`, in order. */
const summary = (changes: readonly CoreChange[]): string[] =>
  changes.map((change) => `${change.op} ${change.collection} ${change.op === 'upsert' ? change.record.id : change.id}`);

/** A dealer account on a core that records its changes, the account's own changes taken. */
async function recorded(input: Record<string, unknown> = {}) {
  const world = await withAccount(input, { recordChanges: true, rateLimit: 0 });
  const created = world.core.takeChanges();
  const take = (): CoreChangeSet => world.core.takeChanges();
  return { ...world, created, take };
}

/** Adds a dealer account `A` to a bare store, in a transaction of its own. */
function addDealer(store: CoreStore) {
  return store.transaction(() =>
    store.addAccount({
      id: store.nextId('account'),
      name: 'A',
      account_type: 'dealer',
      created_at: '',
      offset_seconds: 0,
    }),
  );
}

describe('core.takeChanges()', () => {
  it('throws a TypeError naming the option when the core does not record changes', () => {
    const core = createSandboxCore();
    expect(() => core.takeChanges()).toThrow(TypeError);
    expect(() => core.takeChanges()).toThrow(/createSandboxCore\(\{ recordChanges: true \}\)/);
  });

  it('answers the changes since the last call, chained by version, with the sequences', async () => {
    const { api, core, created, take } = await recorded();
    expect(created).toMatchObject({ base: 0, version: 1, sequences: { account: 1, book: 1, token: 1 } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'B2' }) });
    const both = take();
    expect(both).toMatchObject({ base: 1, version: 3, sequences: { receipt: 2, audit: 2 } });
    expect(take()).toEqual({ base: 3, version: 3, sequences: both.sequences, changes: [] });
    expect(core.version).toBe(3);
  });

  it('hands out the stored records themselves, not copies', async () => {
    const { api, core, take } = await recorded();
    await api('POST', '/receipts', { body: receiptBody() });
    const [upsert] = take().changes;
    expect(upsert?.op === 'upsert' && upsert.record).toBe(core.snapshot().receipts[0]);
    expect(Object.isFrozen(upsert?.op === 'upsert' && upsert.record)).toBe(true);
  });
});

describe('every change to state reports its records', () => {
  it('POST /_sandbox/accounts: the account, its books and its token', async () => {
    const { created } = await recorded({ books: ['Consignment'] });
    expect(summary(created.changes)).toEqual([
      'upsert accounts 1',
      'upsert books 1',
      'upsert books 2',
      'upsert tokens 1',
    ]);
  });

  it('POST /receipts: the receipt, the last record number of its book, its audit entry and a delivery per subscribed endpoint', async () => {
    const { api, take } = await recorded();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    expect(summary(take().changes)).toEqual(['upsert webhooks 1']);
    await api('POST', '/receipts', { body: receiptBody() });
    const { changes } = take();
    expect(summary(changes).slice(0, 3)).toEqual(['upsert receipts 1', 'upsert books 1', 'upsert audit 1']);
    expect(changes[1]).toMatchObject({ record: { name: 'Main', last_record: 1 } });
    expect(changes[3]).toMatchObject({ op: 'upsert', collection: 'deliveries', record: { event: 'receipt.created' } });
    expect(changes).toHaveLength(4);
  });

  it('PUT, dispose and DELETE /receipts/{id}: the receipt, the audit entry, the deleted receipt', async () => {
    const { api, take } = await recorded();
    await api('POST', '/receipts', { body: receiptBody() });
    take();
    await api('PUT', '/receipts/1', { body: { model: 'Changed' } });
    expect(summary(take().changes)).toEqual(['upsert receipts 1', 'upsert audit 2']);
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    expect(summary(take().changes)).toEqual(['upsert receipts 1', 'upsert audit 3']);
    await api('DELETE', '/receipts/1');
    expect(summary(take().changes)).toEqual(['remove receipts 1', 'upsert deleted_receipts 1', 'upsert audit 4']);
  });

  it('documents and E4473 data: the receipt', async () => {
    const { api, control, take } = await recorded();
    await api('POST', '/receipts', { body: receiptBody() });
    take();
    await control('POST', '/receipts/1/documents', { body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } });
    const attached = take();
    expect(summary(attached.changes)).toEqual(['upsert receipts 1']);
    expect(attached.sequences.document).toBe(1);
    await control('PUT', '/receipts/1/e4473', {
      body: {
        form_4473_serial: 'F-1',
        transferee_name: 'J. Doe',
        nics_result: 'proceed',
        completed_at: '2025-03-14T10:00:00Z',
      },
    });
    expect(summary(take().changes)).toEqual(['upsert receipts 1']);
  });

  it('tokens, books and the clock: the token, the book, the account', async () => {
    const { control, take } = await recorded();
    await control('POST', '/tokens', { body: { permissions: ['read'] } });
    expect(summary(take().changes)).toEqual(['upsert tokens 2']);
    await control('DELETE', '/tokens/2');
    const revoked = take().changes[0];
    expect(revoked).toMatchObject({
      op: 'upsert',
      collection: 'tokens',
      record: { id: 2, revoked_at: expect.any(String) },
    });
    await control('POST', '/books', { body: { name: 'Consignment' } });
    expect(summary(take().changes)).toEqual(['upsert books 2']);
    await control('POST', '/clock/advance', { body: { seconds: 60 } });
    const [advanced] = take().changes;
    expect(advanced).toMatchObject({ op: 'upsert', collection: 'accounts', record: { id: 1, offset_seconds: 60 } });
  });

  it('DELETE /webhooks/{id}: the endpoint leaves, its pending deliveries are cancelled', async () => {
    const { api, take } = await recorded();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    const delivery = take().changes.find((change) => change.collection === 'deliveries');
    await api('DELETE', '/webhooks/1');
    const { changes } = take();
    expect(summary(changes)).toEqual([
      'remove webhooks 1',
      `upsert deliveries ${delivery?.op === 'upsert' ? delivery.record.id : ''}`,
    ]);
    expect(changes[1]).toMatchObject({ record: { state: 'cancelled', next_attempt_at: null } });
  });

  it('POST /_sandbox/reset: a removal for every record it drops, then the new Main', async () => {
    const { api, control, take } = await recorded({ books: ['Consignment'] });
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'B2' }) });
    await api('DELETE', '/receipts/2');
    take();
    await control('POST', '/reset');
    const removed = summary(take().changes);
    expect(removed.filter((line) => !line.startsWith('remove deliveries'))).toEqual([
      'remove receipts 1',
      'remove deleted_receipts 2',
      'remove audit 1',
      'remove audit 2',
      'remove audit 3',
      'remove books 1',
      'remove books 2',
      'remove webhooks 1',
      'upsert books 3',
    ]);
    expect(removed.filter((line) => line.startsWith('remove deliveries'))).toHaveLength(3);
  });
});

describe('a request that changes nothing reports nothing', () => {
  it.each([
    ['a 422', 422, 'POST', '/rest/v1/receipts', { ...receiptBody(), book: 'Nope' }],
    ['a 404', 404, 'PUT', '/rest/v1/receipts/99', { model: 'X' }],
    ['a PUT that changes nothing', 200, 'PUT', '/rest/v1/receipts/1', { model: 'EX-9 Compact' }],
    ['a second disposition', 422, 'POST', '/rest/v1/receipts/2/dispose', dispositionBody()],
    ['malformed JSON', 422, 'POST', '/rest/v1/receipts', '{"book":'],
    ['a bad webhook', 422, 'POST', '/rest/v1/webhooks', { url: 'ftp://x', events: [] }],
    ['a taken book name', 422, 'POST', '/_sandbox/books', { name: 'Main' }],
    ['an unknown token id', 404, 'DELETE', '/_sandbox/tokens/99', undefined],
    ['a clock advance of 0 seconds', 422, 'POST', '/_sandbox/clock/advance', { seconds: 0 }],
    ['a read', 200, 'GET', '/rest/v1/receipts', undefined],
  ])('%s (%i)', async (_, status, method, path, body) => {
    const { api, core, call, token, take } = await recorded();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'B2' }) });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    const before = take();
    const response = await call(method, path, typeof body === 'string' ? { token, rawBody: body } : { token, body });
    expect(response.status).toBe(status);
    expect(take()).toEqual({ base: before.version, version: before.version, sequences: before.sequences, changes: [] });
    expect(core.version).toBe(before.version);
  });

  it('an unauthenticated, forbidden or rate-limited request', async () => {
    const { core, call, token } = await withAccount({}, { recordChanges: true, rateLimit: 1 });
    const readOnly = (await call('POST', '/_sandbox/tokens', { token, body: { permissions: ['read'] } })).body as {
      token: string;
    };
    const before = core.takeChanges();
    expect((await call('POST', '/rest/v1/receipts', { body: receiptBody() })).status).toBe(401);
    expect((await call('POST', '/rest/v1/receipts', { token: readOnly.token, body: receiptBody() })).status).toBe(403);
    expect((await call('POST', '/rest/v1/receipts', { token, body: receiptBody() })).status).toBe(201);
    expect(
      (await call('POST', '/rest/v1/receipts', { token, body: receiptBody({ serial_number: 'C3' }) })).status,
    ).toBe(429);
    const after = core.takeChanges();
    expect(after.base).toBe(before.version);
    expect(summary(after.changes)).toEqual(['upsert receipts 1', 'upsert books 1', 'upsert audit 1']);
  });
});

describe('store.transaction(change)', () => {
  it('keeps nothing of a change that throws: records, indexes, sequences and version', () => {
    const store = new CoreStore();
    addDealer(store);
    const account = store.accounts.get(1)!;
    expect(store.version).toBe(1);
    expect(() =>
      store.transaction(() => {
        store.put(account, 'books', {
          id: store.nextId('book'),
          account_id: 1,
          name: 'Main',
          created_at: '',
          last_record: 0,
        });
        store.put(account, 'accounts', { ...account.record, offset_seconds: 60 });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(account.books.size).toBe(0);
    expect(account.record.offset_seconds).toBe(0);
    expect(store.sequences.book).toBe(0);
    expect(store.version).toBe(1);
  });

  it('refuses a change made outside a transaction', () => {
    const store = new CoreStore();
    expect(() =>
      store.addAccount({ id: 1, name: 'A', account_type: 'dealer', created_at: '', offset_seconds: 0 }),
    ).toThrow(/outside a transaction/);
  });
});

describe('core.revertChanges()', () => {
  it('takes back every change not confirmed, so ids and record numbers are given again', async () => {
    const { api, core, take } = await recorded();
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'KEPT' }) });
    const kept = take();
    core.confirmChanges(kept);
    await api('POST', '/receipts', { body: receiptBody({ serial_number: 'LOST-1' }) });
    take();
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    const before = core.snapshot();
    expect(before.receipts).toHaveLength(2);

    core.revertChanges();
    expect(core.version).toBe(kept.version);
    const after = core.snapshot();
    expect(after.receipts.map((receipt) => [receipt.serial_number, receipt.status])).toEqual([['KEPT', 'on_hand']]);
    expect(after.webhooks).toEqual([]);
    expect(after.sequences).toEqual(kept.sequences);
    expect(take()).toEqual({ base: kept.version, version: kept.version, sequences: kept.sequences, changes: [] });

    const again = dataOf<{ id: number; record: number }>(
      await api('POST', '/receipts', { body: receiptBody({ serial_number: 'NEXT' }) }),
    );
    expect([again.id, again.record]).toEqual([2, 2]);
    expect((await api('POST', '/receipts/1/dispose', { body: dispositionBody() })).status).toBe(200);
    expect((await api('GET', '/inventory')).body).toMatchObject({ meta: { total: 1 } });
  });

  it('takes back a reset, with the deliveries it cancelled due again', async () => {
    const { api, control, core, take } = await recorded();
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    await api('POST', '/receipts', { body: receiptBody() });
    core.confirmChanges(take());
    const before = core.snapshot();
    expect((await control('POST', '/reset')).status).toBe(204);
    expect(core.snapshot().receipts).toEqual([]);
    core.revertChanges();
    expect(core.snapshot()).toEqual(before);
    // The delivery of the receipt, never attempted, is due again at once: when the receipt was made.
    expect(before.deliveries).toMatchObject([{ state: 'pending', next_attempt_at: '2025-03-14T15:04:05Z' }]);
    expect(core.deliveries.nextDueAt()).toBe(START);
    expect(dataOf<unknown[]>(await api('GET', '/receipts'))).toHaveLength(1);
  });
});

describe('the followers of the store', () => {
  /** A store with an account and an endpoint, whose followers' activities are kept in `told`. */
  function followed() {
    const store = new CoreStore();
    const account = addDealer(store);
    const told: Activity['kind'][] = [];
    store.followers.add((activity) => told.push(activity.kind));
    const delivery = (id: string) => ({
      id,
      webhook_id: 1,
      event: 'ping' as const,
      state: 'pending' as const,
      next_attempt_at: '2025-03-14T15:04:05.000Z',
      created_at: '2025-03-14T15:04:05.000Z',
      attempts: [],
      account_id: account.record.id,
      body: '{}',
      scheduled_attempts: 0,
    });
    return { store, account, told, delivery };
  }

  it('hear of a delivery once the transaction that made it commits, not while it runs', () => {
    const { store, account, told, delivery } = followed();
    store.transaction(() => {
      store.put(account, 'deliveries', delivery('d1'));
      expect(told).toEqual([]);
    });
    expect(told).toEqual(['delivery']);
  });

  it('hear nothing of a transaction that throws, of a load, or of a revert', () => {
    const { store, account, told, delivery } = followed();
    expect(() =>
      store.transaction(() => {
        store.put(account, 'deliveries', delivery('d1'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    store.load(account, 'deliveries', delivery('d2'));
    store.startRecording();
    store.transaction(() => store.put(account, 'deliveries', delivery('d3')));
    expect(told).toEqual(['delivery']);
    store.revert();
    expect(told).toEqual(['delivery']);
    expect(account.deliveries.map(({ id }) => id)).toEqual(['d2']);
  });
});
