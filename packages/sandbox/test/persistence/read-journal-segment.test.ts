import type { CoreChangeSet } from '@boundbook/sandbox-core';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptJournalLine } from '../../src/persistence/corrupt-journal-line';
import { encodeJournalLine } from '../../src/persistence/encode-journal-line';
import { readJournalSegment } from '../../src/persistence/read-journal-segment';

const SEQUENCES = { account: 1, token: 1, book: 1, receipt: 0, audit: 0, webhook: 0, document: 0 };

/** The journal line leading from version `base` to `base + 1`. */
const line = (base: number): string =>
  encodeJournalLine({ base, version: base + 1, sequences: SEQUENCES, changes: [] }).toString('utf8');

let dir: string;
let segment: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-journal-segment-'));
  segment = join(dir, 'sandbox.json.journal.1');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = async () => {
  const seen: [number, number][] = [];
  const end = await readJournalSegment(segment, (changeSet: CoreChangeSet, number) => seen.push([changeSet.version, number]));
  return { seen, ...end };
};

describe('readJournalSegment(path, onChangeSet)', () => {
  it('hands over every change set in order, with its line number', async () => {
    await writeFile(segment, line(1) + line(2) + line(3));
    expect(await read()).toEqual({ seen: [[2, 1], [3, 2], [4, 3]], tornTail: false });
  });

  it('ignores a last line without its newline: an append cut short, never acknowledged', async () => {
    await writeFile(segment, line(1) + line(2) + line(3).slice(0, -1));
    expect(await read()).toEqual({ seen: [[2, 1], [3, 2]], tornTail: true });
  });

  it('ignores a last line that does not parse', async () => {
    await writeFile(segment, `${line(1)}{"v":3,"ba\n`);
    expect(await read()).toEqual({ seen: [[2, 1]], tornTail: true });
  });

  it('throws a CorruptJournalLine for an unreadable line that other lines follow', async () => {
    await writeFile(segment, `${line(1)}garbage\n${line(3)}`);
    await expect(read()).rejects.toThrow(CorruptJournalLine);
    await expect(read()).rejects.toMatchObject({ line: 2 });
  });

  it('reads an empty segment as no change sets', async () => {
    await writeFile(segment, '');
    expect(await read()).toEqual({ seen: [], tornTail: false });
  });
});
