import { describe, expect, it } from 'vitest';
import { removeById, upsertById } from '../../src/state/sorted-by-id';

describe('upsertById(records, record) and removeById(records, id)', () => {
  it('keep the array ascending, replacing a record of the same id', () => {
    const records: { id: number; v?: string }[] = [];
    for (const id of [5, 1, 9, 3, 7]) upsertById(records, { id });
    upsertById(records, { id: 3, v: 'new' });
    expect(records).toEqual([{ id: 1 }, { id: 3, v: 'new' }, { id: 5 }, { id: 7 }, { id: 9 }]);
    removeById(records, 5);
    removeById(records, 4);
    removeById(records, 9);
    expect(records.map((record) => record.id)).toEqual([1, 3, 7]);
  });
});
