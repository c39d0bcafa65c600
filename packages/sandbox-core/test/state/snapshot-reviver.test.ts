import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import type { CoreSnapshot, SandboxSnapshot } from '../../src/index';
import { CreationEntry } from '../../src/state/audit-trails';
import { createSnapshotReviver, type SnapshotReviver } from '../../src/state/snapshot-reviver';
import { createSnapshotStringifier } from '../../src/state/snapshot';
import { countingBytes, dispositionBody, receiptBody, START, withAccount } from '../harness/harness';

/**
 * Reads a snapshot as the sandbox's data file reader does: each record of each collection, in
 * order, from its JSON text, through the reviver's text() first and record() otherwise.
 */
function readThrough(snapshot: SandboxSnapshot, reviver: SnapshotReviver = createSnapshotReviver()): SandboxSnapshot {
  const read: SandboxSnapshot = { format: snapshot.format };
  for (const [key, value] of Object.entries(JSON.parse(JSON.stringify(snapshot)) as SandboxSnapshot)) {
    if (!Array.isArray(value)) {
      read[key] = value;
      continue;
    }
    read[key] = value.map((record: unknown) => {
      const text = JSON.stringify(record);
      return reviver.text(key, text) ?? reviver.record(key, JSON.parse(text));
    });
  }
  return read;
}

/** Two accounts with receipts made, corrected, disposed, deleted, documented and restored. */
async function busyCore(): Promise<CoreSnapshot> {
  const { api, control, call, core } = await withAccount({ books: ['Consignment'] });
  await call('POST', '/_sandbox/accounts', { body: {} });
  for (let n = 1; n <= 6; n++) {
    await api('POST', '/receipts', {
      body: receiptBody({
        serial_number: `S${n}`,
        book: n % 3 ? 'Main' : 'Consignment',
        model: n < 4 ? 'EX-9' : 'Modèle "9" ✓',
      }),
    });
  }
  await api('PUT', '/receipts/2', { body: { model: 'Changed' } });
  await api('POST', '/receipts/3/dispose', { body: dispositionBody() });
  await api('DELETE', '/receipts/4');
  await control('POST', '/receipts/5/documents', { body: { name: 'a.pdf', mime_type: 'application/pdf', size: 1 } });
  const { token } = (await control('POST', '/tokens', { body: { permissions: ['read', 'write'] } })).body as {
    token: string;
  };
  await call('POST', '/rest/v1/receipts', { token, body: receiptBody({ serial_number: 'S7' }) });
  return core.snapshot();
}

const restored = (snapshot: SandboxSnapshot) =>
  createSandboxCore({ now: () => START, randomBytes: countingBytes(), snapshot });

describe('createSnapshotReviver()', () => {
  it('gives a snapshot that restores the same state as the plain one, with entries `created` held as their receipts', async () => {
    const snapshot = await busyCore();
    const read = readThrough(snapshot);
    const entries = read['audit'] as unknown[];
    // Every entry `created` but that of receipt 2, corrected since, is known from its receipt.
    expect(
      entries.filter((entry) => entry instanceof CreationEntry).map((entry) => (entry as CreationEntry).receipt_id),
    ).toEqual([1, 3, 4, 5, 6, 7]);
    expect(JSON.parse(JSON.stringify(read))).toEqual(JSON.parse(JSON.stringify(snapshot)));
    expect(restored(read).snapshot()).toEqual(
      restored(JSON.parse(JSON.stringify(snapshot)) as SandboxSnapshot).snapshot(),
    );
    expect(restored(read).snapshot()).toEqual(snapshot);
  });

  it('knows most entries `created` from their text alone, and no text it does not match exactly', async () => {
    const snapshot = await busyCore();
    const reviver = createSnapshotReviver();
    readThrough({ format: 2, receipts: snapshot.receipts, deleted_receipts: snapshot.deleted_receipts }, reviver);
    const created = (receiptId: number) =>
      snapshot.audit.find((entry) => entry.action === 'created' && entry.receipt_id === receiptId);
    // Receipt 2 was corrected since its entry: receipts 1 and 3 still read as they were made.
    const [first, second] = [created(1), created(3)];
    expect(reviver.text('audit', JSON.stringify(first))).toBeUndefined();
    // Once an entry is parsed, the next ones made with its token are known from their text.
    const parsed = reviver.record('audit', JSON.parse(JSON.stringify(first)));
    expect(parsed).toBeInstanceOf(CreationEntry);
    const known = reviver.text('audit', JSON.stringify(second));
    expect(known).toBeInstanceOf(CreationEntry);
    expect(JSON.stringify(known)).toBe(JSON.stringify(second));

    const text = JSON.stringify(second);
    for (const altered of [
      text.replace('{"id":', '{"id": '),
      text.replace(/"id":(\d+)/, '"id":0$1'),
      text.replace('"token_id":1', '"token_id":2'),
      text.replace('"EX-9"', '"EX\\u002d9"'),
      text.replace('"from":null', '"from": null'),
      text.replace(/"receipt_id":\d+/, '"receipt_id":99'),
      text.replace('"action":"created"', '"action":"updated"'),
      `${text} `,
    ]) {
      expect(altered).not.toBe(text);
      expect(reviver.text('audit', altered)).toBeUndefined();
    }
    expect(reviver.text('receipts', JSON.stringify(snapshot.receipts[0]))).toBeUndefined();
  });

  it('finds the receipts of a snapshot that does not list them by id', async () => {
    const snapshot = await busyCore();
    const shuffled = { ...snapshot, receipts: [...snapshot.receipts].reverse() };
    const read = readThrough(shuffled);
    expect((read['audit'] as unknown[]).filter((entry) => entry instanceof CreationEntry)).toHaveLength(6);
    expect(restored(read).snapshot()).toEqual(snapshot);
  });

  it('keeps whole the entries met before their receipt, and restores them all the same', async () => {
    const snapshot = await busyCore();
    const { audit, ...rest } = snapshot;
    const read = readThrough({ audit, ...rest });
    expect((read['audit'] as unknown[]).some((entry) => entry instanceof CreationEntry)).toBe(false);
    expect(restored(read).snapshot()).toEqual(snapshot);
  });
});

describe('createSnapshotStringifier()', () => {
  it('writes each record of a snapshot taken for writing as JSON.stringify does, entries held as receipts included', async () => {
    const snapshot = await busyCore();
    const core = restored(readThrough(snapshot));
    const held = core.snapshot({ jsonOnly: true });
    expect(held.audit.some((entry) => entry instanceof CreationEntry)).toBe(true);
    const stringify = createSnapshotStringifier();
    for (const [key, value] of Object.entries(held)) {
      if (!Array.isArray(value)) continue;
      for (const record of value) expect(stringify(record), key).toBe(JSON.stringify(record));
    }
    expect(stringify(undefined)).toBe('null');
  });
});
