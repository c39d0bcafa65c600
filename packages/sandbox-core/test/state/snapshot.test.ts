import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import type { SandboxSnapshot } from '../../src/index';
import { countingBytes, dataOf, dispositionBody, receiptBody, START, withAccount } from '../harness/harness';
import fc from 'fast-check';
import { applyChanges, ChangeReplay } from '../../src/state/snapshot';
import type { CoreChangeSet } from '../../src/state/records';

describe('snapshot() and restore', () => {
  it('restores everything through JSON: records, counts, record numbers, sequences, trails, outbox', async () => {
    const world = await withAccount({ books: ['Consignment'] });
    const { api, control, core, token } = world;
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    for (const book of ['Main', 'Main', 'Consignment', 'Main'])
      await api('POST', '/receipts', { body: receiptBody({ book }) });
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/4');
    await control('POST', '/receipts/1/documents', { body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } });
    await control('POST', '/clock/advance', { body: { seconds: 120 } });
    const readOnly = (await control('POST', '/tokens', { body: { permissions: ['read'] } })).body as { token: string };

    const restored = createSandboxCore({
      now: () => START,
      randomBytes: countingBytes(),
      snapshot: JSON.parse(JSON.stringify(core.snapshot())) as SandboxSnapshot,
    });
    const call = (method: string, path: string, body?: unknown, as = token) =>
      restored.handle({
        method,
        path,
        query: '',
        headers: { authorization: `Bearer ${as}`, host: 'sandbox.test' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(restored.version).toBe(core.version);
    for (const path of ['/rest/v1/books', '/rest/v1/receipts', '/rest/v1/receipts/2', '/rest/v1/webhooks']) {
      expect((await call('GET', path)).body).toEqual((await api('GET', path.replace('/rest/v1', ''))).body);
    }
    expect((await call('GET', '/_sandbox/receipts/4/audit')).body).toEqual(
      (await control('GET', '/receipts/4/audit')).body,
    );
    expect(dataOf(await call('GET', '/_sandbox/clock'))).toEqual({ now: '2025-03-14T15:06:05Z', offset_seconds: 120 });
    expect((await call('GET', '/rest/v1/receipts/4')).status).toBe(404);
    expect((await call('POST', '/rest/v1/receipts', receiptBody(), readOnly.token)).status).toBe(403);
    expect(restored.snapshot().deliveries).toEqual(core.snapshot().deliveries);

    const next = dataOf<{ id: number; record: number }>(await call('POST', '/rest/v1/receipts', receiptBody()));
    expect([next.id, next.record]).toEqual([5, 4]);
    expect(
      dataOf<{ id: number }>(
        await call('POST', '/_sandbox/receipts/1/documents', { name: 'b', mime_type: 'a/b', size: 1 }),
      ).id,
    ).toBe(2);
    expect((await call('POST', '/rest/v1/receipts/3/dispose', dispositionBody())).status).toBe(422);
  });

  it('hands out the stored record objects, not copies', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody() });
    const before = core.snapshot();
    await api('PUT', '/receipts/2', { body: { model: 'Changed' } });
    const after = core.snapshot();
    expect(after.receipts[0]).toBe(before.receipts[0]);
    expect(after.receipts[1]).not.toBe(before.receipts[1]);
    expect(after.accounts[0]).toBe(before.accounts[0]);
  });

  it('throws a TypeError naming the package and the record for a snapshot it cannot read', () => {
    const restore = (snapshot: unknown) => () => createSandboxCore({ snapshot: snapshot as SandboxSnapshot });
    expect(restore({ format: 3 })).toThrow(
      /^\[@fflkit\/sandbox-core\] cannot restore the snapshot: it is of format 3, newer than format 2, the newest this version reads/,
    );
    expect(restore({ format: 'x' })).toThrow(/format x is not a snapshot format \(1 to 2\)/);
    const base = {
      format: 2,
      version: 1,
      sequences: { account: 1, book: 1, audit: 0 },
      accounts: [{ id: 1, offset_seconds: 0 }],
    };
    expect(restore({ ...base, books: [{ id: 1, account_id: 9, name: 'Main', created_at: '' }] })).toThrow(
      /book 1 belongs to account 9/,
    );
    expect(restore({ ...base, books: [null] })).toThrow(/book at position 0 of books is null, not a record with an id/);
    expect(restore({ ...base, audit: [{ id: 1, receipt_id: 7 }], sequences: { ...base.sequences, audit: 1 } })).toThrow(
      /audit entry 1 belongs to receipt 7, which it lacks/,
    );
    expect(restore({ ...base, sequences: { account: 0 } })).toThrow(
      /the account sequence is at 0, below the id of account 1/,
    );
    expect(restore({ ...base, accounts: {} })).toThrow(/accounts is not a list/);
  });

  it('restores a snapshot of format 1, giving each book the last record number of its receipts', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    await api('POST', '/receipts', { body: receiptBody() });
    await api('DELETE', '/receipts/2');
    const current = core.snapshot();
    const formatOne = { ...current, format: 1, books: current.books.map(({ last_record: _, ...book }) => book) };
    const restored = createSandboxCore({
      now: () => START,
      snapshot: JSON.parse(JSON.stringify(formatOne)) as SandboxSnapshot,
    });
    expect(restored.snapshot()).toEqual(current);
    expect(restored.snapshot().format).toBe(2);
  });

  it('refuses a book whose last record number is below one of its receipts', async () => {
    const { api, core } = await withAccount();
    await api('POST', '/receipts', { body: receiptBody() });
    const snapshot = core.snapshot();
    const books = snapshot.books.map((book) => ({ ...book, last_record: 0 }));
    expect(() => createSandboxCore({ snapshot: { ...snapshot, books } })).toThrow(
      /book 1 gives 0 as its last record number, below its receipts' 1/,
    );
  });
});

/** Through JSON, as a data file holds it. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A snapshot in the order a core lists its records, to compare snapshots made differently. */
const canonical = (snapshot: SandboxSnapshot): unknown =>
  viaJson(createSandboxCore({ snapshot: viaJson(snapshot), randomBytes: countingBytes() }).snapshot());

/** What a step of the random scenario does; `n` picks an id (1 to 3) or a variant. */
const STEPS = [
  'receipt',
  'bad receipt',
  'update',
  'dispose',
  'delete',
  'document',
  'e4473',
  'token',
  'revoke',
  'book',
  'clock',
  'webhook',
  'delete webhook',
  'reset',
  'account',
] as const;

/**
 * A dealer account on a core that records its changes, with the default random source: the
 * harness's counting source repeats after 256 bytes, and so would delivery ids.
 */
async function recordingWorld() {
  const core = createSandboxCore({ now: () => START, recordChanges: true, rateLimit: 0 });
  const call = (method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}) =>
    core.handle({
      method,
      path,
      query: '',
      headers: { host: 'sandbox.test', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const { token } = (await call('POST', '/_sandbox/accounts', { body: {} })).body as { token: string };
  const api = (method: string, path: string, options: { body?: unknown } = {}) =>
    call(method, `/rest/v1${path}`, { token, ...options });
  const control = (method: string, path: string, options: { body?: unknown } = {}) =>
    call(method, `/_sandbox${path}`, { token, ...options });
  return { core, call, api, control };
}

describe('applyChanges(snapshot, changeSets)', () => {
  it('rebuilds the snapshot of a core from an earlier one and the change sets taken since', async () => {
    const { api, control, core } = await withAccount({ books: ['Consignment'] }, { recordChanges: true });
    const before = viaJson(core.snapshot());
    const sets: CoreChangeSet[] = [core.takeChanges()];
    await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: ['*'] } });
    for (const book of ['Main', 'Consignment', 'Main']) await api('POST', '/receipts', { body: receiptBody({ book }) });
    sets.push(core.takeChanges());
    await api('POST', '/receipts/2/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/3');
    await control('POST', '/receipts/1/documents', { body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } });
    await control('POST', '/clock/advance', { body: { seconds: 120 } });
    await api('DELETE', '/webhooks/1');
    sets.push(core.takeChanges());

    const replayed = applyChanges(before, viaJson(sets));
    expect(canonical(replayed)).toEqual(canonical(core.snapshot()));
    expect(replayed).toMatchObject({ version: core.version, sequences: core.snapshot().sequences });
  });

  it('gives createSandboxCore({ snapshot, changes }) the same state as the core it follows', async () => {
    const { api, core, token } = await withAccount({}, { recordChanges: true });
    const before = viaJson(core.snapshot());
    core.takeChanges();
    await api('POST', '/receipts', { body: receiptBody() });
    const restored = createSandboxCore({ snapshot: before, changes: [viaJson(core.takeChanges())], now: () => START });
    const response = await restored.handle({
      method: 'GET',
      path: '/rest/v1/receipts/1',
      query: '',
      headers: { authorization: `Bearer ${token}`, host: 'sandbox.test' },
    });
    expect(response.body).toEqual((await api('GET', '/receipts/1')).body);
    expect(restored.version).toBe(core.version);
  });

  it('keeps the snapshot of any sequence of requests, taken at any points', async () => {
    const step = fc.record({ kind: fc.constantFrom(...STEPS), n: fc.nat(2), take: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 20, maxLength: 60 }), async (steps) => {
        const { api, control, call, core } = await recordingWorld();
        const start = viaJson(core.snapshot());
        const sets: CoreChangeSet[] = [];
        let serial = 0;
        for (const { kind, n, take } of steps) {
          const id = n + 1;
          if (kind === 'receipt')
            await api('POST', '/receipts', { body: receiptBody({ serial_number: `S${(serial += 1)}` }) });
          if (kind === 'bad receipt') await api('POST', '/receipts', { body: receiptBody({ book: 'Nope' }) });
          if (kind === 'update') await api('PUT', `/receipts/${id}`, { body: { model: `M${n}` } });
          if (kind === 'dispose')
            await api('POST', `/receipts/${id}/dispose`, {
              body: dispositionBody({ form_4473_serial: `F${(serial += 1)}` }),
            });
          if (kind === 'delete') await api('DELETE', `/receipts/${id}`);
          if (kind === 'document')
            await control('POST', `/receipts/${id}/documents`, { body: { name: 'a', mime_type: 'a/b', size: n } });
          if (kind === 'e4473') {
            const body = {
              form_4473_serial: `E${n}`,
              transferee_name: 'T',
              nics_result: 'proceed',
              completed_at: '2025-03-14T10:00:00Z',
            };
            await control('PUT', `/receipts/${id}/e4473`, { body });
          }
          if (kind === 'token') await control('POST', '/tokens', { body: { permissions: ['read'] } });
          if (kind === 'revoke' && id > 1) await control('DELETE', `/tokens/${id}`);
          if (kind === 'book') await control('POST', '/books', { body: { name: `Book ${n}` } });
          if (kind === 'clock') await control('POST', '/clock/advance', { body: { seconds: id } });
          if (kind === 'webhook')
            await api('POST', '/webhooks', {
              body: { url: 'https://a.example.com', events: n % 2 ? ['*'] : ['receipt.deleted'] },
            });
          if (kind === 'delete webhook') await api('DELETE', `/webhooks/${id}`);
          if (kind === 'reset') await control('POST', '/reset');
          if (kind === 'account') await call('POST', '/_sandbox/accounts', { body: { books: [`B${n}`] } });
          if (take) sets.push(viaJson(core.takeChanges()));
        }
        sets.push(viaJson(core.takeChanges()));
        expect(canonical(applyChanges(start, sets))).toEqual(canonical(core.snapshot()));
      }),
      { numRuns: 100 },
    );
  });
});

describe('ChangeReplay', () => {
  const set = (base: number, version: number, id: number): CoreChangeSet => ({
    base,
    version,
    sequences: { account: 0, token: 0, book: 0, receipt: id, audit: 0, webhook: 0, document: 0 },
    changes: [{ op: 'upsert', collection: 'receipts', record: { id, model: `v${version}` } as never }],
  });

  it('apply() skips a change set the snapshot already holds', () => {
    const replay = new ChangeReplay({ format: 1, version: 5, receipts: [{ id: 1, model: 'v5' }] });
    expect(replay.apply(set(4, 5, 1))).toBe(false);
    expect(replay.snapshot()).toEqual({ format: 1, version: 5, receipts: [{ id: 1, model: 'v5' }] });
    expect(replay.apply(set(5, 6, 2))).toBe(true);
    expect(replay.snapshot()).toMatchObject({ version: 6, receipts: [{ id: 1 }, { id: 2, model: 'v6' }] });
  });

  it('apply() throws a TypeError when changes are missing between the snapshot and the set', () => {
    const replay = new ChangeReplay({ format: 1, version: 5 });
    expect(() => replay.apply(set(6, 7, 1))).toThrow(/from version 6 to a snapshot of version 5/);
  });

  it('apply() applies whole a set that starts before the snapshot and leads past it', () => {
    const replay = new ChangeReplay({ format: 1, version: 5, receipts: [{ id: 1, model: 'v5' }] });
    expect(replay.apply({ ...set(3, 7, 1), changes: [...set(3, 4, 1).changes, ...set(3, 7, 1).changes] })).toBe(true);
    expect(replay.snapshot()).toMatchObject({ version: 7, receipts: [{ id: 1, model: 'v7' }] });
  });

  it('apply() throws a TypeError for a change to an unknown collection', () => {
    const replay = new ChangeReplay();
    const bad = {
      ...set(0, 1, 1),
      changes: [{ op: 'remove', collection: 'secrets', id: 1 }],
    } as unknown as CoreChangeSet;
    expect(() => replay.apply(bad)).toThrow(/unknown collection "secrets"/);
  });

  it('snapshot() keeps the order of a collection, replaced records in place and new ones last', () => {
    const replay = new ChangeReplay({ format: 1, version: 0, deliveries: [{ id: 'b' }, { id: 'a' }] });
    replay.apply({
      base: 0,
      version: 1,
      sequences: set(0, 1, 0).sequences,
      changes: [
        { op: 'upsert', collection: 'deliveries', record: { id: 'c' } as never },
        { op: 'upsert', collection: 'deliveries', record: { id: 'b', state: 'cancelled' } as never },
      ],
    });
    expect(replay.snapshot()['deliveries']).toEqual([{ id: 'b', state: 'cancelled' }, { id: 'a' }, { id: 'c' }]);
  });
});
