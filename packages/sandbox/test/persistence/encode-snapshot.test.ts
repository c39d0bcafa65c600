import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import { describe, expect, it } from 'vitest';
import { encodeSnapshot } from '../../src/persistence/encode-snapshot';
import { sampleSnapshot } from './sample-snapshot';

const text = (snapshot: SandboxSnapshot): string => Buffer.concat([...encodeSnapshot(snapshot)]).toString('utf8');

describe('encodeSnapshot(snapshot)', () => {
  it('writes one valid JSON document equal in value to JSON.stringify', () => {
    const snapshot = sampleSnapshot();
    expect(JSON.parse(text(snapshot))).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('puts each record of a collection on a line of its own', () => {
    const lines = text(sampleSnapshot()).split('\n');
    expect(lines).toContain('"receipts": [');
    expect(lines).toContain('{"id":1,"serial_number":"A1","disposition":null,"tags":["x"]},');
    expect(lines).toContain('"sequences": {"receipt":2,"account":1},');
    expect(lines).toContain('"empty": [],');
    expect(lines.at(-2)).toBe('}');
  });

  it('yields chunks of about 1 MB, only as they are asked for', () => {
    const record = { id: 1, text: 'x'.repeat(1000) };
    const snapshot = { format: 1, records: Array.from({ length: 3000 }, () => record) } as SandboxSnapshot;
    const chunks = encodeSnapshot(snapshot);
    const first = chunks.next();
    expect(first.done).toBe(false);
    expect((first.value as Buffer).length).toBeGreaterThanOrEqual(2 ** 20);
    expect((first.value as Buffer).length).toBeLessThan(2 ** 20 + 2000);
    const rest = [...chunks];
    expect(rest).toHaveLength(2);
    expect(JSON.parse(Buffer.concat([first.value as Buffer, ...rest]).toString('utf8'))).toEqual(snapshot);
  });

  it('writes an empty snapshot as an empty object', () => {
    expect(text({} as SandboxSnapshot)).toBe('{\n}\n');
  });
});
