import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type QueuedAttempt } from '../../src/state/delivery-schedule';

const entry = (dueMs: number, seq: number, rank = 0): QueuedAttempt => ({
  dueMs,
  seq,
  rank,
  due: String(dueMs),
  deliveryId: `d${seq}`,
});

describe('DeliveryQueue', () => {
  it('pops entries earliest first, and those due together first come, first served', () => {
    const queue = new DeliveryQueue();
    for (const [dueMs, seq] of [
      [30, 1],
      [10, 2],
      [20, 3],
      [10, 4],
      [5, 5],
    ] as const)
      queue.push(entry(dueMs, seq));
    expect(queue.size).toBe(5);
    expect(queue.peek()?.deliveryId).toBe('d5');
    const order: string[] = [];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) order.push(next.deliveryId);
    expect(order).toEqual(['d5', 'd2', 'd4', 'd3', 'd1']);
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });

  it('pops entries due together in order of rank, before the order they came in', () => {
    const queue = new DeliveryQueue();
    for (const [dueMs, seq, rank] of [
      [10, 1, 2],
      [10, 2, 0],
      [10, 3, 1],
      [5, 4, 9],
      [10, 5, 0],
    ] as const)
      queue.push(entry(dueMs, seq, rank));
    const order: string[] = [];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) order.push(next.deliveryId);
    expect(order).toEqual(['d4', 'd2', 'd5', 'd3', 'd1']);
  });

  it('gives any mix of pushes and pops in sorted order', () => {
    const push = fc.record({ dueMs: fc.integer({ min: 0, max: 50 }), rank: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(fc.array(fc.oneof(push, fc.constant(null)), { maxLength: 200 }), (ops) => {
        const queue = new DeliveryQueue();
        const model: QueuedAttempt[] = [];
        ops.forEach((op, seq) => {
          if (op !== null) {
            queue.push(entry(op.dueMs, seq, op.rank));
            model.push(entry(op.dueMs, seq, op.rank));
            model.sort((a, b) => a.dueMs - b.dueMs || a.rank - b.rank || a.seq - b.seq);
          } else {
            expect(queue.pop()).toEqual(model.shift());
          }
        });
        expect(queue.size).toBe(model.length);
      }),
    );
  });
});
