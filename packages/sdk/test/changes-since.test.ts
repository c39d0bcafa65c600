import type { ReceiptChange, SyncCheckpoint } from '@fflkit/sdk';
import { describe, expect, it } from 'vitest';
import { changesSince } from '../src/changes-since';
import { FakeClock } from './support/fake-clock';
import { at, ReceiptStore } from './support/receipt-store';

async function collect(store: ReceiptStore, clock: FakeClock, checkpoint: SyncCheckpoint | null) {
  const changes: ReceiptChange[] = [];
  for await (const change of changesSince(store.list, clock, checkpoint)) changes.push(change);
  const last = changes.at(-1)?.checkpoint;
  // What a caller stores goes through JSON.
  return {
    changes,
    pairs: changes.map((c) => [c.receipt.id, c.receipt.updated_at]),
    checkpoint: last && (JSON.parse(JSON.stringify(last)) as SyncCheckpoint),
  };
}

describe('changesSince(listPage, clock, checkpoint)', () => {
  it('with no checkpoint, yields every receipt across pages and a checkpoint at the newest update', async () => {
    const store = new ReceiptStore();
    for (let id = 1; id <= 450; id++) store.put(id, at(id % 7));
    const { changes, checkpoint } = await collect(store, new FakeClock(), null);
    expect(changes.map((c) => c.receipt.id)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    expect(store.queries).toEqual([
      { per_page: 200, page: 1 },
      { per_page: 200, page: 2 },
      { per_page: 200, page: 3 },
    ]);
    expect(checkpoint?.after).toBe(at(6));
    expect(checkpoint?.seen.map(([id, updatedAt]) => [id, updatedAt])).toEqual(
      [...store.receipts.values()].filter((r) => r.updated_at === at(6)).map((r) => [r.id, r.updated_at]),
    );
    expect(checkpoint?.seen.every(([, , print]) => /^[0-9a-z]+$/.test(print))).toBe(true);
  });

  it('queries from one second before the checkpoint and skips the pairs already seen', async () => {
    const store = new ReceiptStore();
    store.put(1, at(10));
    store.put(2, at(10));
    const clock = new FakeClock();
    const first = await collect(store, clock, null);
    expect(first.checkpoint?.after).toBe(at(10));
    expect(first.checkpoint?.seen.map(([id, updatedAt]) => [id, updatedAt])).toEqual([
      [1, at(10)],
      [2, at(10)],
    ]);
    store.queries.length = 0;
    const second = await collect(store, clock, first.checkpoint ?? null);
    expect(store.queries).toEqual([{ per_page: 200, since: at(9), page: 1 }]);
    expect(second.changes).toEqual([]);
  });

  it('yields a receipt updated later within the same second as the last one seen', async () => {
    const store = new ReceiptStore();
    store.put(1, at(10));
    const clock = new FakeClock();
    const first = await collect(store, clock, null);
    // A naive `since = last updated_at` would miss both of these.
    store.put(2, at(10));
    const second = await collect(store, clock, first.checkpoint ?? null);
    expect(second.pairs).toEqual([[2, at(10)]]);
    store.put(1, at(11));
    const third = await collect(store, clock, second.checkpoint ?? null);
    expect(third.pairs).toEqual([[1, at(11)]]);
  });

  it('yields a receipt changed again within the same second, which keeps its updated_at', async () => {
    const store = new ReceiptStore();
    store.put(1, at(10));
    const clock = new FakeClock();
    const first = await collect(store, clock, null);
    const changed = store.put(1, at(10));
    changed.model = 'EX-9 Compact OR';
    const second = await collect(store, clock, first.checkpoint ?? null);
    expect(second.changes.map((c) => c.receipt.model)).toEqual(['EX-9 Compact OR']);
    const third = await collect(store, clock, second.checkpoint ?? null);
    expect(third.changes).toEqual([]);
  });

  it('yields each later update of a receipt once, and nothing twice across calls', async () => {
    const store = new ReceiptStore();
    const clock = new FakeClock();
    let checkpoint: SyncCheckpoint | null = null;
    const yielded: unknown[] = [];
    for (let second = 0; second < 20; second++) {
      store.put((second % 3) + 1, at(second >> 1));
      const result = await collect(store, clock, checkpoint);
      yielded.push(...result.pairs);
      checkpoint = result.checkpoint ?? checkpoint;
    }
    const expected = Array.from({ length: 20 }, (_, second) => JSON.stringify([(second % 3) + 1, at(second >> 1)]));
    expect(yielded.map((pair) => JSON.stringify(pair))).toEqual([...new Set(expected)]);
  });

  it('a receipt changed during a pass, on a page already read, is yielded by the next call', async () => {
    const store = new ReceiptStore();
    for (let id = 1; id <= 400; id++) store.put(id, at(0));
    const clock = new FakeClock();
    store.beforePage = (query) => {
      if (query.page !== 2) return;
      // While page 2 is read, receipt 5 (page 1) and then receipt 300 (page 2) change, 2 s apart.
      clock.time += 3000;
      store.put(5, at(100));
      store.put(300, at(102));
    };
    const first = await collect(store, clock, null);
    expect(first.pairs).toContainEqual([300, at(102)]);
    expect(first.pairs).not.toContainEqual([5, at(100)]);
    store.beforePage = () => undefined;
    const second = await collect(store, clock, first.checkpoint ?? null);
    expect(second.pairs).toEqual([[5, at(100)]]);
  });

  it('reads a pass again when the list shrank between pages, yielding nothing twice', async () => {
    const store = new ReceiptStore();
    for (let id = 1; id <= 300; id++) store.put(id, at(0));
    let deleted = false;
    store.beforePage = (query) => {
      if (query.page === 2 && !deleted) {
        deleted = true;
        store.delete(3); // receipt 201 moves to page 1, already read
      }
    };
    const { pairs } = await collect(store, new FakeClock(), null);
    // Receipt 3 was yielded before it was deleted; 201, skipped by the shifted page 2, is not lost.
    expect(pairs.map(([id]) => id)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(store.queries.map((query) => query.page)).toEqual([1, 2, 1, 2]);
  });

  it('each checkpoint resumes right after its receipt', async () => {
    const store = new ReceiptStore();
    for (let id = 1; id <= 10; id++) store.put(id, at(id));
    const clock = new FakeClock();
    const taken: ReceiptChange[] = [];
    for await (const change of changesSince(store.list, clock, null)) {
      taken.push(change);
      if (taken.length === 4) break;
    }
    const resumed = await collect(store, clock, JSON.parse(JSON.stringify(taken[3]?.checkpoint)) as SyncCheckpoint);
    expect(resumed.pairs.map(([id]) => id)).toEqual([5, 6, 7, 8, 9, 10]);
  });

  it('moves `after` back by the time the pass took', async () => {
    const store = new ReceiptStore();
    store.put(1, at(50));
    const clock = new FakeClock();
    store.beforePage = () => (clock.time += 4500);
    const { checkpoint } = await collect(store, clock, null);
    expect(checkpoint?.after).toBe(at(45));
    expect(checkpoint?.seen.map(([id, updatedAt]) => [id, updatedAt])).toEqual([[1, at(50)]]);
  });

  it('yields nothing when nothing changed', async () => {
    const store = new ReceiptStore();
    const { changes } = await collect(store, new FakeClock(), { after: at(5), seen: [] });
    expect(changes).toEqual([]);
  });

  it('throws a TypeError for something that is not a checkpoint, before any request', async () => {
    const store = new ReceiptStore();
    const broken = { after: 'yesterday', seen: [] } as SyncCheckpoint;
    await expect(collect(store, new FakeClock(), broken)).rejects.toThrow(TypeError);
    await expect(collect(store, new FakeClock(), { after: at(1) } as unknown as SyncCheckpoint)).rejects.toThrow(
      'pass null to start over',
    );
    expect(store.queries).toEqual([]);
  });
});
