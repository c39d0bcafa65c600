import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import { describe, expect, it } from 'vitest';
import { encodeSnapshot } from '../../src/persistence/encode-snapshot';
import { SnapshotLineParser } from '../../src/persistence/snapshot-line-parser';
import { sampleSnapshot } from './sample-snapshot';

/** Feeds the lines of `text` (split at newlines) and answers what the parser made of them. */
function parse(text: string): SandboxSnapshot | undefined {
  const parser = new SnapshotLineParser();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) if (!parser.line(line)) return undefined;
  return parser.end();
}

describe('SnapshotLineParser', () => {
  it('reads back what encodeSnapshot wrote', () => {
    const snapshot = sampleSnapshot();
    const text = Buffer.concat([...encodeSnapshot(snapshot)]).toString('utf8');
    expect(parse(text)).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('reads the layout with spacing inside records, as a hand edit may leave it', () => {
    expect(parse('{\n"format": 1,\n"records": [\n{"id": 1,  "note": "spaced"},\n{"id":2}\n]\n}\n')).toEqual({
      format: 1,
      records: [{ id: 1, note: 'spaced' }, { id: 2 }],
    });
  });

  it.each([
    ['pretty-printed JSON', JSON.stringify({ format: 1, receipts: [{ id: 1 }, { id: 2 }] }, null, 2)],
    ['JSON on one line', JSON.stringify({ format: 1, receipts: [{ id: 1 }] })],
    ['CRLF line ends', '{\r\n"format": 1,\r\n"receipts": [\r\n{"id":1}\r\n]\r\n}\r\n'],
    ['an array opened and closed on two lines', '{\n"format": 1,\n"receipts": [\n]\n}\n'],
    ['a member named __proto__', '{\n"__proto__": 1\n}\n'],
    ['a member twice', '{\n"format": 1,\n"format": 2\n}\n'],
    ['a member without its comma', '{\n"format": 1\n"receipts": []\n}\n'],
    ['a record without its comma', '{\n"receipts": [\n{"id":1}\n{"id":2}\n]\n}\n'],
    ['a trailing comma after the last record', '{\n"receipts": [\n{"id":1},\n]\n}\n'],
    ['a trailing comma after the last member', '{\n"format": 1,\n}\n'],
    ['a line after the end', '{\n"format": 1\n}\nmore\n'],
    ['a file cut short', '{\n"format": 1,\n"receipts": [\n{"id":1},\n{"id"'],
  ])('leaves the layout for %s, so the whole file is parsed instead', (_, text) => {
    expect(parse(text)).toBeUndefined();
  });
});
