import { describe, expect, it } from 'vitest';
import { createSandboxCore } from '../../src/core';
import type { CoreSnapshot, SandboxSnapshot } from '../../src/index';
import { countingBytes, receiptBody, START, withAccount } from '../harness/harness';

const restore = (snapshot: unknown) =>
  createSandboxCore({ now: () => START, randomBytes: countingBytes(), snapshot: snapshot as SandboxSnapshot });
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Two accounts, two receipts each, the second account's made after the first's. */
async function twoAccounts(): Promise<CoreSnapshot> {
  const { api, call, core } = await withAccount();
  const other = (await call('POST', '/_sandbox/accounts', { body: {} })).body as { token: string };
  await api('POST', '/receipts', { body: receiptBody({ serial_number: 'A1' }) });
  await call('POST', '/rest/v1/receipts', { token: other.token, body: receiptBody({ serial_number: 'B1' }) });
  await api('POST', '/receipts', { body: receiptBody({ serial_number: 'A2' }) });
  await api('DELETE', '/receipts/3');
  return viaJson(core.snapshot());
}

describe('restoring a snapshot', () => {
  it('puts each audit entry in the account of its receipt, live or deleted', async () => {
    const snapshot = await twoAccounts();
    expect(restore(snapshot).snapshot()).toEqual(snapshot);
  });

  it('finds the account of receipts whose ids are far above the others', async () => {
    const snapshot = await twoAccounts();
    const far = 2 ** 31 + 5;
    const moved = {
      ...snapshot,
      sequences: { ...snapshot.sequences, receipt: far },
      receipts: snapshot.receipts.map((receipt) => (receipt.id === 2 ? { ...receipt, id: far } : receipt)),
      audit: snapshot.audit.map((entry) => (entry.receipt_id === 2 ? { ...entry, receipt_id: far } : entry)),
    };
    expect(restore(moved).snapshot()).toEqual(moved);
  });

  it('refuses a receipt listed both live and deleted, naming it', async () => {
    const snapshot = await twoAccounts();
    const twice = {
      ...snapshot,
      deleted_receipts: [
        ...snapshot.deleted_receipts,
        { ...snapshot.receipts[0], deleted_at: snapshot.receipts[0]!.created_at },
      ],
    };
    expect(() => restore(twice)).toThrow(/cannot restore the snapshot: receipt 1 is there twice/);
  });

  it('refuses an audit entry of a receipt it lacks, naming both', async () => {
    const snapshot = await twoAccounts();
    const orphan = {
      ...snapshot,
      audit: [...snapshot.audit, { ...snapshot.audit[0], id: 99, receipt_id: 42 }],
      sequences: { ...snapshot.sequences, audit: 99 },
    };
    expect(() => restore(orphan)).toThrow(/audit entry 99 belongs to receipt 42, which it lacks/);
  });
});
