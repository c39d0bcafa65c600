import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type QueuedAttempt } from '../../src/state/delivery-schedule';

const entry = (dueMs: number, seq: number): QueuedAttempt => ({ dueMs, seq, due: String(dueMs), deliveryId: `d${seq}` });

describe('DeliveryQueue', () => {
  it('pops entries earliest first, and those due together first come, first served', () => {
    const queue = new DeliveryQueue();
    for (const [dueMs, seq] of [[30, 1], [10, 2], [20, 3], [10, 4], [5, 5]] as const) queue.push(entry(dueMs, seq));
    expect(queue.size).toBe(5);
    expect(queue.peek()?.deliveryId).toBe('d5');
    const order: string[] = [];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) order.push(next.deliveryId);
    expect(order).toEqual(['d5', 'd2', 'd4', 'd3', 'd1']);
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });

  it('gives any mix of pushes and pops in sorted order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(-1)), { maxLength: 200 }), (ops) => {
        const queue = new DeliveryQueue();
        const model: QueuedAttempt[] = [];
        ops.forEach((op, seq) => {
          if (op >= 0) {
            queue.push(entry(op, seq));
            model.push(entry(op, seq));
            model.sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq);
          } else {
            expect(queue.pop()).toEqual(model.shift());
          }
        });
        expect(queue.size).toBe(model.length);
      }),
    );
  });
});
