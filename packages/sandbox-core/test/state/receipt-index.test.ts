import type { Receipt } from '@fflkit/types';
import { describe, expect, it } from 'vitest';
import { ReceiptIndex } from '../../src/state/receipt-index';

const receipt = (id: number, status: Receipt['status'] = 'on_hand') => ({ id, status }) as Receipt;
const ids = (list: readonly Receipt[]) => list.map((record) => record.id);

describe('ReceiptIndex', () => {
  it('keeps every list ascending by id, whatever order receipts come in, replacing one of the same id', () => {
    const index = new ReceiptIndex();
    for (const id of [5, 1, 9, 3, 7]) index.put(receipt(id));
    const replacement = receipt(3);
    index.put(replacement, receipt(3));
    expect(ids(index.all)).toEqual([1, 3, 5, 7, 9]);
    expect(index.all[1]).toBe(replacement);
    index.remove(receipt(5));
    index.remove(receipt(4));
    index.remove(receipt(9));
    expect(ids(index.list())).toEqual([1, 3, 7]);
    expect(ids(index.list('on_hand'))).toEqual([1, 3, 7]);
  });

  it('moves a receipt between the status lists when its status changes', () => {
    const index = new ReceiptIndex();
    index.put(receipt(1));
    index.put(receipt(2));
    index.put(receipt(1, 'disposed'), receipt(1));
    expect(ids(index.onHand)).toEqual([2]);
    expect(ids(index.disposed)).toEqual([1]);
    expect(ids(index.all)).toEqual([1, 2]);
  });
});
