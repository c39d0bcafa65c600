import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/create-sandbox-core';
import type { SandboxSnapshot } from '../../src/sandbox-core-types';
import { applyChanges } from '../../src/state/apply-changes';
import { ChangeReplay } from '../../src/state/change-replay';
import type { CoreChangeSet } from '../../src/state/core-change';
import { countingBytes, dispositionBody, receiptBody, START, withAccount } from '../support/harness';

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
          if (kind === 'receipt') await api('POST', '/receipts', { body: receiptBody({ serial_number: `S${(serial += 1)}` }) });
          if (kind === 'bad receipt') await api('POST', '/receipts', { body: receiptBody({ book: 'Nope' }) });
          if (kind === 'update') await api('PUT', `/receipts/${id}`, { body: { model: `M${n}` } });
          if (kind === 'dispose') await api('POST', `/receipts/${id}/dispose`, { body: dispositionBody({ form_4473_serial: `F${(serial += 1)}` }) });
          if (kind === 'delete') await api('DELETE', `/receipts/${id}`);
          if (kind === 'document') await control('POST', `/receipts/${id}/documents`, { body: { name: 'a', mime_type: 'a/b', size: n } });
          if (kind === 'e4473') {
            const body = { form_4473_serial: `E${n}`, transferee_name: 'T', nics_result: 'proceed', completed_at: '2025-03-14T10:00:00Z' };
            await control('PUT', `/receipts/${id}/e4473`, { body });
          }
          if (kind === 'token') await control('POST', '/tokens', { body: { permissions: ['read'] } });
          if (kind === 'revoke' && id > 1) await control('DELETE', `/tokens/${id}`);
          if (kind === 'book') await control('POST', '/books', { body: { name: `Book ${n}` } });
          if (kind === 'clock') await control('POST', '/clock/advance', { body: { seconds: id } });
          if (kind === 'webhook') await api('POST', '/webhooks', { body: { url: 'https://a.example.com', events: n % 2 ? ['*'] : ['receipt.deleted'] } });
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
    const bad = { ...set(0, 1, 1), changes: [{ op: 'remove', collection: 'secrets', id: 1 }] } as unknown as CoreChangeSet;
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
