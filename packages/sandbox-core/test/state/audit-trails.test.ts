import type { Receipt } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { RECEIPT_FIELDS } from '../../src/receipts/receipt-input';
import { AuditTrails, CreationEntry, creationEntry, CreationTexts } from '../../src/state/audit-trails';
import type { AuditRecord } from '../../src/state/records';
import { receiptResource } from '@fflkit/test-fixtures';
import { dataOf, dispositionBody, receiptBody, withAccount } from '../harness/harness';

/** A stored receipt of the shared sample, numbered `id`, with the given fields. */
const receipt = (id: number, fields: Partial<Receipt> = {}): Receipt =>
  receiptResource({ id, user_id: 1, record: id, serial_number: `S${id}`, ...fields }) as Receipt;

/** The entry `created` the core writes for `stored` (see appendAudit and recordReceipt). */
const createdRecord = (id: number, stored: Receipt, tokenId: number | null = 1): AuditRecord => {
  const changes: AuditRecord['changes'] = {};
  for (const field of RECEIPT_FIELDS) if (stored[field] !== null) changes[field] = { from: null, to: stored[field] };
  return { id, action: 'created', changes, token_id: tokenId, occurred_at: stored.created_at, receipt_id: stored.id };
};

describe('creationEntry(record, receipt)', () => {
  it('holds the entry the core writes as its receipt, giving back the same record and JSON', () => {
    const stored = receipt(7, { importer: '', purchase_amount: 12.5, zip: '12345' });
    const record = createdRecord(3, stored, null);
    const entry = creationEntry(record, stored);
    expect(entry).toBeInstanceOf(CreationEntry);
    expect(entry!.record()).toEqual(record);
    expect(JSON.stringify(entry)).toBe(JSON.stringify(record));
    expect(Object.keys(entry!.record().changes)).toEqual(Object.keys(record.changes));
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry!.record().changes['book'])).toBe(true);
  });

  it.each([
    ['another action', (r: AuditRecord) => ({ ...r, action: 'updated' as const })],
    ['a member more', (r: AuditRecord) => ({ ...r, note: 'x' })],
    [
      'members in another order',
      ({ id, action, changes, occurred_at, token_id, receipt_id }: AuditRecord) => ({
        id,
        action,
        changes,
        occurred_at,
        token_id,
        receipt_id,
      }),
    ],
    [
      'a change from a value',
      (r: AuditRecord) => ({ ...r, changes: { ...r.changes, model: { from: 'X', to: 'EX-9 Compact' } } }),
    ],
    [
      'a change to another value',
      (r: AuditRecord) => ({ ...r, changes: { ...r.changes, model: { from: null, to: 'EX-10' } } }),
    ],
    [
      'a change with a member more',
      (r: AuditRecord) => ({ ...r, changes: { ...r.changes, model: { from: null, to: 'EX-9 Compact', by: 1 } } }),
    ],
    [
      'a field missing',
      (r: AuditRecord) => ({
        ...r,
        changes: Object.fromEntries(Object.entries(r.changes).filter(([field]) => field !== 'type')),
      }),
    ],
    [
      'a field of a null value',
      (r: AuditRecord) => ({ ...r, changes: { ...r.changes, city: { from: null, to: null } } }),
    ],
    [
      'fields in another order',
      (r: AuditRecord) => ({ ...r, changes: Object.fromEntries(Object.entries(r.changes).reverse()) }),
    ],
    ['another receipt', (r: AuditRecord) => ({ ...r, receipt_id: 8 })],
  ])('keeps whole an entry with %s', (_, alter) => {
    const stored = receipt(7);
    expect(creationEntry(alter(createdRecord(3, stored)) as AuditRecord, stored)).toBeUndefined();
  });
});

describe('CreationTexts', () => {
  it('text(entry) is JSON.stringify of the entry, run after run, values shared or not', () => {
    const texts = new CreationTexts();
    const receipts = [
      receipt(1),
      receipt(2),
      receipt(3, { model: 'Modèle "9" \\ ✓', purchase_amount: 0.1 }),
      receipt(4, { model: 'Modèle "9" \\ ✓', city: 'Line\nbreak \u2028', importer: '' }),
      receipt(5, { manufacturer: '\ud800 lone surrogate' }),
      receipt(6),
    ];
    for (const [at, stored] of receipts.entries()) {
      const entry = new CreationEntry(100 + at, at % 2 === 0 ? null : 3, stored.created_at, stored);
      expect(texts.text(entry)).toBe(JSON.stringify(createdRecord(100 + at, stored, at % 2 === 0 ? null : 3)));
    }
  });
  it.each(RECEIPT_FIELDS.filter((field) => field !== 'serial_number'))(
    'text(entry) starts a new run when %s differs from the receipt before',
    (field) => {
      const texts = new CreationTexts();
      const before = receipt(1);
      const value = field === 'purchase_amount' ? 99.5 : `${String(before[field] ?? 'was null')} changed`;
      const after = receipt(2, { [field]: value });
      for (const [at, stored] of [before, after].entries()) {
        const entry = new CreationEntry(at + 1, 3, stored.created_at, stored);
        expect(texts.text(entry)).toBe(JSON.stringify(createdRecord(at + 1, stored, 3)));
      }
    },
  );
});

describe('CreationTexts.matches(entry, text)', () => {
  it('knows the exact text of an entry, run after run, and nothing else', () => {
    const texts = new CreationTexts();
    const first = new CreationEntry(10, 3, '2025-03-14T15:04:05Z', receipt(1));
    const second = new CreationEntry(11, 3, '2025-03-14T15:04:05Z', receipt(2));
    const other = new CreationEntry(12, 3, '2025-03-14T15:04:05Z', receipt(3, { model: 'EX-10' }));
    for (const entry of [first, second, other, second]) {
      const text = JSON.stringify(entry);
      expect(texts.matches(entry, text)).toBe(true);
      for (const altered of [
        `${text} `,
        text.replace('"EX-', '"Ex-'),
        text.replace('"token_id":3', '"token_id":4'),
        text.slice(0, -1),
        text.replace('"id":', '"id": '),
      ]) {
        expect(texts.matches(entry, altered)).toBe(false);
      }
    }
    expect(texts.matches(second, JSON.stringify(first))).toBe(false);
  });
});

describe('AuditTrails', () => {
  const receipts = (...stored: Receipt[]) => ({
    receipts: new Map(stored.map((one) => [one.id, one])),
    deletedReceipts: new Map<number, Receipt>(),
  });

  it('holds entries by receipt, oldest first, and takes them out or back by id', () => {
    const first = receipt(1);
    const second = receipt(2);
    const trails = new AuditTrails();
    const held = receipts(first, second);
    const created = createdRecord(1, first);
    const updated: AuditRecord = {
      id: 2,
      action: 'updated',
      changes: { model: { from: 'EX-9', to: 'EX-10' } },
      token_id: 1,
      occurred_at: 'x',
      receipt_id: 1,
    };
    trails.apply(undefined, created, held);
    trails.apply(undefined, createdRecord(3, second), held);
    trails.apply(undefined, updated, held);
    expect(trails.records(1)).toEqual([created, updated]);
    expect(trails.find(1, 1)).toBeInstanceOf(CreationEntry);
    expect(trails.find(1, 2)).toBe(updated);
    expect([...trails.held()].map((entry) => entry.id)).toEqual([1, 2, 3]);
    trails.apply(updated, undefined, held);
    trails.apply({ ...created }, undefined, held);
    expect(trails.records(1)).toEqual([]);
    expect(trails.find(1, 1)).toBeUndefined();
    expect([...trails.held()].map((entry) => entry.id)).toEqual([3]);
  });
});

describe('the audit trail through the API', () => {
  it('keeps what an entry `created` said after its receipt changes, is disposed and deleted', async () => {
    const { api, control, core } = await withAccount({}, { recordChanges: true });
    await api('POST', '/receipts', { body: receiptBody() });
    const before = dataOf<unknown[]>(await control('GET', '/receipts/1/audit'));
    await api('PUT', '/receipts/1', { body: { model: 'Changed', purchase_amount: null } });
    await api('POST', '/receipts/1/dispose', { body: dispositionBody() });
    await api('DELETE', '/receipts/1');
    const after = dataOf<unknown[]>(await control('GET', '/receipts/1/audit'));
    expect(after[0]).toEqual(before[0]);
    expect(after.map((entry) => (entry as { action: string }).action)).toEqual([
      'created',
      'updated',
      'disposed',
      'deleted',
    ]);
    const held = core.snapshot({ jsonOnly: true }).audit;
    expect(held[0]).toBeInstanceOf(CreationEntry);
    expect(JSON.parse(JSON.stringify(held))).toEqual(core.snapshot().audit);
    expect(core.snapshot().audit.every((entry) => !(entry instanceof CreationEntry))).toBe(true);
  });
});
