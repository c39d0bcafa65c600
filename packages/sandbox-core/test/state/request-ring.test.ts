import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestLogRecord } from '../../src/state/records';
import { type RequestLogInput, type RequestLogLimits, RequestRing } from '../../src/state/request-ring';

/** An entry of `size` bytes that arrived at `receivedMs`, each of its texts and objects its own. */
const entry = (size: number, receivedMs: number, tag = String(receivedMs)): RequestLogInput => ({
  method: 'PUT',
  path: `/rest/v1/receipts/${tag}`,
  query: `q=${tag}`,
  operation: 'updateReceipt',
  status: 404,
  duration_ms: 1.5,
  received_ms: receivedMs,
  headers: Object.freeze({ 'x-trace': tag }),
  body: Object.freeze({ model: tag }),
  response_body: Object.freeze({ message: tag }),
  fault: null,
  size,
});

/** Every record the ring holds, oldest first. */
const records = (ring: RequestRing): RequestLogRecord[] =>
  Array.from({ length: ring.length }, (_, index) => ring.at(index));

/** The log as an array of records, as it was kept before the ring: what the ring must keep. */
function arrayLog() {
  const held: RequestLogRecord[] = [];
  const tally = { bytes: 0, dropped: 0, lastDroppedMs: Number.NEGATIVE_INFINITY };
  return {
    held,
    tally,
    push(id: number, input: RequestLogInput, limits: RequestLogLimits) {
      held.push({ id, ...input });
      tally.bytes += input.size;
      while (held.length > 1 && (held.length > limits.entries || tally.bytes > limits.bytes)) {
        const dropped = held.shift()!;
        tally.bytes -= dropped.size;
        tally.dropped += 1;
        tally.lastDroppedMs = Math.max(tally.lastDroppedMs, dropped.received_ms);
      }
    },
  };
}

describe('RequestRing', () => {
  it('wraps around at the limit of entries: the oldest dropped, the rest in order, each entry read back whole', () => {
    const ring = new RequestRing();
    const limits = { entries: 20, bytes: 1_000_000 };
    // 20 fill the first room (16) and the grown one; 25 more overwrite every slot once and 5 again.
    for (let id = 1; id <= 45; id += 1) ring.push(id, entry(10, 1000 + id), limits);
    expect(records(ring).map((record) => record.id)).toEqual(Array.from({ length: 20 }, (_, at) => 26 + at));
    expect([ring.length, ring.bytes, ring.dropped, ring.lastDroppedMs]).toEqual([20, 200, 25, 1025]);
    // An entry read after the ring wrapped: its own numbers, texts and objects, none of the entry it overwrote.
    expect(ring.at(0)).toEqual({ id: 26, ...entry(10, 1026) });
    expect(ring.at(19)).toEqual({ id: 45, ...entry(10, 1045) });
  });

  it('wraps around at the limit of bytes, keeping the newest entry even when it alone is over', () => {
    const ring = new RequestRing();
    const limits = { entries: 1000, bytes: 100 };
    // Each entry of 30 bytes drops one once three are held: the ring turns within its first room.
    for (let id = 1; id <= 40; id += 1) ring.push(id, entry(30, 1000 + id), limits);
    expect(records(ring).map((record) => record.id)).toEqual([38, 39, 40]);
    expect([ring.bytes, ring.dropped, ring.lastDroppedMs]).toEqual([90, 37, 1037]);
    expect(ring.at(1)).toEqual({ id: 39, ...entry(30, 1039) });
    ring.push(41, entry(500, 1041), limits);
    expect(records(ring)).toEqual([{ id: 41, ...entry(500, 1041) }]);
    expect([ring.bytes, ring.dropped, ring.lastDroppedMs]).toEqual([500, 40, 1040]);
    ring.push(42, entry(1, 1042), limits);
    expect(records(ring).map((record) => record.id)).toEqual([42]);
  });

  it('grows while wrapped, keeping the entries in order', () => {
    const ring = new RequestRing();
    // Drops at the limit of bytes move the oldest slot on; light entries then fill the room and make it grow.
    for (let id = 1; id <= 10; id += 1) ring.push(id, entry(60, id), { entries: 1000, bytes: 100 });
    for (let id = 11; id <= 40; id += 1) ring.push(id, entry(1, id), { entries: 1000, bytes: 100 });
    expect(records(ring).map((record) => record.id)).toEqual(Array.from({ length: 31 }, (_, at) => 10 + at));
    expect(ring.at(0)).toEqual({ id: 10, ...entry(60, 10) });
    expect(ring.at(30)).toEqual({ id: 40, ...entry(1, 40) });
  });

  it('keeps the references it was given, and makes a new record at each read', () => {
    const ring = new RequestRing();
    const first = entry(10, 1);
    ring.push(1, first, { entries: 5, bytes: 100 });
    const read = ring.at(0);
    expect([read.path, read.headers, read.body, read.response_body]).toEqual([
      first.path,
      first.headers,
      first.body,
      first.response_body,
    ]);
    expect(read.headers).toBe(first.headers);
    expect(read.body).toBe(first.body);
    expect(ring.at(0)).not.toBe(read);
  });

  it('refuses to read an entry it does not hold', () => {
    const ring = new RequestRing();
    ring.push(1, entry(10, 1), { entries: 5, bytes: 100 });
    for (const index of [-1, 1, 0.5])
      expect(() => ring.at(index)).toThrow(/^\[@fflkit\/sandbox-core\].*holds 1 entries/);
  });

  it('keeps what a log of records kept, for any sizes and limits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 200 }),
        (entries, bytes, sizes) => {
          const ring = new RequestRing();
          const model = arrayLog();
          sizes.forEach((size, at) => {
            ring.push(at + 1, entry(size, 5000 - (at % 7)), { entries, bytes });
            model.push(at + 1, entry(size, 5000 - (at % 7)), { entries, bytes });
          });
          expect(records(ring)).toEqual(model.held);
          expect([ring.bytes, ring.dropped, ring.lastDroppedMs]).toEqual([
            model.tally.bytes,
            model.tally.dropped,
            model.tally.lastDroppedMs,
          ]);
        },
      ),
    );
  });
});
