import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import { describe, expect, it, vi } from 'vitest';
import { createSnapshotEncoder } from '../../src/persistence/create-snapshot-encoder';
import { sampleSnapshot } from './sample-snapshot';

const text = (chunks: Buffer[]): string => Buffer.concat(chunks).toString('utf8');

describe('createSnapshotEncoder().encode(snapshot)', () => {
  it('writes one valid JSON document equal in value to JSON.stringify', () => {
    const snapshot = sampleSnapshot();
    const json = text(createSnapshotEncoder().encode(snapshot));
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('puts each record of a collection on a line of its own', () => {
    const lines = text(createSnapshotEncoder().encode(sampleSnapshot())).split('\n');
    expect(lines).toContain('"receipts": [');
    expect(lines).toContain('{"id":1,"serial_number":"A1","disposition":null,"tags":["x"]},');
    expect(lines).toContain('"sequences": {"receipt":2,"account":1},');
    expect(lines).toContain('"empty": [],');
    expect(lines.at(-2)).toBe('}');
  });

  it('serialises a record once while the same object stays in the snapshot', () => {
    const snapshot = sampleSnapshot();
    const encoder = createSnapshotEncoder();
    const first = encoder.encode(snapshot);
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      const second = encoder.encode(snapshot);
      const recordCalls = spy.mock.calls.filter(([value]) => {
        return typeof value === 'object' && value !== null && 'serial_number' in value;
      });
      expect(recordCalls).toEqual([]);
      expect(text(second)).toBe(text(first));
    } finally {
      spy.mockRestore();
    }
  });

  it('writes a replaced record anew, and a list inside a collection as it is now', () => {
    const snapshot = sampleSnapshot();
    const encoder = createSnapshotEncoder();
    encoder.encode(snapshot);
    const receipts = snapshot['receipts'] as { id: number; serial_number: string }[];
    receipts[0] = { ...receipts[0]!, serial_number: 'CHANGED' };
    (snapshot['numbers'] as unknown[][])[3]!.push(4);
    const json = text(encoder.encode(snapshot));
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(snapshot)));
    expect(json).toContain('CHANGED');
    expect(json).toContain('[3,4]');
  });

  it('uses the bytes it is told to remember for a record', () => {
    const record = { id: 1 };
    const encoder = createSnapshotEncoder();
    encoder.remember(record, Buffer.from('{"id": 1}'));
    expect(text(encoder.encode({ format: 1, records: [record] }))).toContain('\n{"id": 1}\n');
  });

  it('writes an empty snapshot as an empty object', () => {
    expect(JSON.parse(text(createSnapshotEncoder().encode({} as SandboxSnapshot)))).toEqual({});
  });
});
