import { describe, expect, it } from 'vitest';
import { applyChanges } from '../src/apply-changes';
import { makeDisposition, makeReceipt } from './make-receipt';

const first = makeReceipt({ id: 1, record: 1 });
const second = makeReceipt({ id: 2, record: 2, serial_number: 'EXA0000002' });
const mirror = new Map([
  [1, first],
  [2, second],
]);

describe('applyChanges(mirror, changes)', () => {
  it('adds a receipt the mirror does not hold and counts it as created', () => {
    const third = makeReceipt({ id: 3, record: 3 });

    const result = applyChanges(mirror, { upserted: [third], deleted: [] });

    expect([...result.mirror.keys()]).toEqual([1, 2, 3]);
    expect(result).toMatchObject({ created: 1, updated: 0, deleted: 0 });
  });

  it('replaces a receipt the mirror holds with its new version and counts it as updated', () => {
    const disposed = { ...second, status: 'disposed' as const, disposition: makeDisposition() };

    const result = applyChanges(mirror, { upserted: [disposed], deleted: [] });

    expect(result.mirror.get(2)).toBe(disposed);
    expect(result.mirror.get(1)).toBe(first);
    expect(result).toMatchObject({ created: 0, updated: 1, deleted: 0 });
  });

  it('removes a deleted receipt and counts it', () => {
    const result = applyChanges(mirror, { upserted: [], deleted: [1] });

    expect([...result.mirror.keys()]).toEqual([2]);
    expect(result.deleted).toBe(1);
  });

  it('does not count the deletion of a receipt the mirror never held', () => {
    const result = applyChanges(mirror, { upserted: [], deleted: [99] });

    expect(result.mirror.size).toBe(2);
    expect(result.deleted).toBe(0);
  });

  it('leaves a receipt changed and deleted in one batch deleted', () => {
    const result = applyChanges(mirror, { upserted: [{ ...first, model: 'EX-9 Full' }], deleted: [1] });

    expect(result.mirror.has(1)).toBe(false);
  });

  it('leaves the given mirror as it was', () => {
    applyChanges(mirror, { upserted: [makeReceipt({ id: 3 })], deleted: [1] });

    expect([...mirror.keys()]).toEqual([1, 2]);
  });
});
