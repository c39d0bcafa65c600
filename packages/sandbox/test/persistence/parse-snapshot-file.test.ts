import { describe, expect, it } from 'vitest';
import { createSnapshotEncoder } from '../../src/persistence/create-snapshot-encoder';
import { parseSnapshotFile } from '../../src/persistence/parse-snapshot-file';
import { sampleSnapshot } from './sample-snapshot';

const encode = (value: unknown): Buffer =>
  Buffer.concat(createSnapshotEncoder().encode(value as never));

const remembered = () => {
  const records: [object, string][] = [];
  return {
    records,
    remember: (record: object, bytes: Buffer) => records.push([record, bytes.toString('utf8')]),
  };
};

describe('parseSnapshotFile(bytes, remember)', () => {
  it('reads back what the encoder wrote, and remembers each record with its exact line', () => {
    const snapshot = sampleSnapshot();
    const memory = remembered();
    const value = parseSnapshotFile(encode(snapshot), memory.remember);
    expect(value).toEqual(JSON.parse(JSON.stringify(snapshot)));
    const receipts = (value as { receipts: object[] }).receipts;
    expect(memory.records.map(([record]) => record)).toContain(receipts[1]);
    for (const [record, line] of memory.records) expect(line).toBe(JSON.stringify(record));
  });

  it('makes the next encoding reuse the remembered bytes', () => {
    const encoder = createSnapshotEncoder();
    const handEdited = Buffer.from('{\n"format": 1,\n"records": [\n{"id": 1,  "note": "spaced"}\n]\n}\n');
    const value = parseSnapshotFile(handEdited, encoder.remember) as never;
    expect(Buffer.concat(encoder.encode(value)).toString('utf8')).toBe(handEdited.toString('utf8'));
  });

  it.each([
    ['pretty-printed JSON', JSON.stringify({ format: 1, receipts: [{ id: 1 }, { id: 2 }] }, null, 2)],
    ['JSON on one line', JSON.stringify({ format: 1, receipts: [{ id: 1 }] })],
    ['CRLF line ends', '{\r\n"format": 1,\r\n"receipts": [\r\n{"id":1}\r\n]\r\n}\r\n'],
    ['an array opened and closed on two lines', '{\n"format": 1,\n"receipts": [\n]\n}\n'],
  ])('parses %s whole, remembering nothing', (_, json) => {
    const memory = remembered();
    expect(parseSnapshotFile(Buffer.from(json), memory.remember)).toEqual(JSON.parse(json));
    expect(memory.records).toEqual([]);
  });

  it.each([
    ['a member without its comma', '{\n"format": 1\n"receipts": []\n}\n'],
    ['a record without its comma', '{\n"receipts": [\n{"id":1}\n{"id":2}\n]\n}\n'],
    ['a trailing comma after the last record', '{\n"receipts": [\n{"id":1},\n]\n}\n'],
    ['a trailing comma after the last member', '{\n"format": 1,\n}\n'],
    ['a file cut short', '{\n"format": 1,\n"receipts": [\n{"id":1},\n{"id"'],
  ])('throws the SyntaxError of JSON.parse for %s', (_, json) => {
    expect(() => parseSnapshotFile(Buffer.from(json), () => undefined)).toThrow(SyntaxError);
  });
});
