import type { CoreChangeSet } from '@boundbook/sandbox-core';
import { describe, expect, it } from 'vitest';
import { encodeJournalLine } from '../../src/persistence/encode-journal-line';
import { parseJournalLine } from '../../src/persistence/parse-journal-line';

const SEQUENCES = { account: 1, token: 1, book: 1, receipt: 2, audit: 2, webhook: 0, document: 0 };

const changeSet = (): CoreChangeSet => ({
  base: 3,
  version: 5,
  sequences: SEQUENCES,
  changes: [
    { op: 'upsert', collection: 'receipts', record: { id: 2, model: 'Line\nbreak "quoted"' } as never },
    { op: 'remove', collection: 'receipts', id: 1 },
    { op: 'upsert', collection: 'deliveries', record: { id: 'a-b', body: '{"x":"\\n"}' } as never },
  ],
});

describe('encodeJournalLine(changeSet)', () => {
  it('writes one line of JSON {v, base, sequences, changes} ended by its only newline', () => {
    const bytes = encodeJournalLine(changeSet());
    const text = bytes.toString('utf8');
    expect(text.indexOf('\n')).toBe(text.length - 1);
    expect(text.startsWith('{"v":5,"base":3,"sequences":')).toBe(true);
    expect(JSON.parse(text)).toEqual({ v: 5, base: 3, sequences: SEQUENCES, changes: changeSet().changes });
  });
});

describe('parseJournalLine(text)', () => {
  it('gives back the change set encodeJournalLine wrote', () => {
    const text = encodeJournalLine(changeSet()).toString('utf8').slice(0, -1);
    expect(parseJournalLine(text)).toEqual(changeSet());
  });

  it('throws the SyntaxError of JSON.parse for a line cut short', () => {
    const text = encodeJournalLine(changeSet()).toString('utf8');
    expect(() => parseJournalLine(text.slice(0, 40))).toThrow(SyntaxError);
  });

  it.each([
    ['null', 'null'],
    ['no version', '{"base":1,"sequences":{},"changes":[]}'],
    ['a base above the version', '{"v":1,"base":2,"sequences":{},"changes":[]}'],
    ['no sequences', '{"v":2,"base":1,"changes":[]}'],
    ['changes that are not a list', '{"v":2,"base":1,"sequences":{},"changes":{}}'],
    ['an unknown operation', '{"v":2,"base":1,"sequences":{},"changes":[{"op":"drop","collection":"receipts","id":1}]}'],
    ['an unknown collection', '{"v":2,"base":1,"sequences":{},"changes":[{"op":"remove","collection":"users","id":1}]}'],
    ['an upsert without a record', '{"v":2,"base":1,"sequences":{},"changes":[{"op":"upsert","collection":"receipts"}]}'],
    ['a removal without an id', '{"v":2,"base":1,"sequences":{},"changes":[{"op":"remove","collection":"receipts"}]}'],
  ])('throws a TypeError for JSON with %s', (_, text) => {
    expect(() => parseJournalLine(text)).toThrow(TypeError);
  });
});
