import { createSandboxCore, type CoreChangeSet, type SandboxCore, type SandboxSnapshot } from '@fflkit/sandbox-core';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError } from '../../src/persistence/data-file';
import {
  DamagedSegmentError,
  encodeJournalLine,
  Journal,
  parseJournalLine,
  readJournalSegment,
  replayJournal,
} from '../../src/persistence/journal';
import { receiptRequest } from '../support/receipt-body';
import { failingFileSystem } from '../support/failing-files';
import { canonical, journalFiles } from '../support/state-on-disk';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-journal-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Journal', () => {
  const line = (text: string): Buffer => Buffer.from(`${text}\n`);

  it('open() lists the segments beside the data file by number, ignoring other files', async () => {
    for (const name of [
      'sandbox.json.journal.10',
      'sandbox.json.journal.2',
      'sandbox.json.journal.x',
      'other.json.journal.1',
    ]) {
      await writeFile(join(dir, name), 'ab\n');
    }
    const journal = await Journal.open(file);
    expect(journal.segments.map((segment) => segment.number)).toEqual([2, 10]);
    expect(journal.bytes).toBe(6);
  });

  it('append() starts a new segment after every existing one, and appends there', async () => {
    await writeFile(`${file}.journal.4`, 'old\n');
    const journal = await Journal.open(file);
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.4']);
    await journal.append(line('a'), 0);
    await journal.append(line('b'), 0);
    expect(await readFile(`${file}.journal.5`, 'utf8')).toBe('a\nb\n');
    expect(await readFile(`${file}.journal.4`, 'utf8')).toBe('old\n');
    expect(journal.bytes).toBe(8);
    await journal.close();
  });

  it('seal() ends the segment: the next append starts another; removeThrough() deletes sealed ones', async () => {
    const journal = await Journal.open(file);
    await journal.append(line('a'), 0);
    expect(journal.seal()).toBe(1);
    await journal.append(line('b'), 0);
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.1', 'sandbox.json.journal.2']);
    await journal.removeThrough(1);
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.2']);
    expect(journal.segments.map((segment) => segment.number)).toEqual([2]);
    expect(journal.bytes).toBe(2);
    await journal.close();
  });

  it('append() throws a DataFileError when it cannot write, and the next append uses a new segment', async () => {
    const journal = await Journal.open(file);
    await mkdir(`${file}.journal.1`);
    await expect(journal.append(line('a'), 0)).rejects.toThrow(DataFileError);
    await expect(journal.append(line('a'), 0)).resolves.toBeUndefined();
    expect(await readFile(`${file}.journal.2`, 'utf8')).toBe('a\n');
    await journal.close();
  });
});

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
    [
      'an unknown operation',
      '{"v":2,"base":1,"sequences":{},"changes":[{"op":"drop","collection":"receipts","id":1}]}',
    ],
    [
      'an unknown collection',
      '{"v":2,"base":1,"sequences":{},"changes":[{"op":"remove","collection":"users","id":1}]}',
    ],
    [
      'an upsert without a record',
      '{"v":2,"base":1,"sequences":{},"changes":[{"op":"upsert","collection":"receipts"}]}',
    ],
    ['a removal without an id', '{"v":2,"base":1,"sequences":{},"changes":[{"op":"remove","collection":"receipts"}]}'],
  ])('throws a TypeError for JSON with %s', (_, text) => {
    expect(() => parseJournalLine(text)).toThrow(TypeError);
  });
});

describe('readJournalSegment(path, onChangeSet)', () => {
  const SEGMENT_SEQUENCES = { account: 1, token: 1, book: 1, receipt: 0, audit: 0, webhook: 0, document: 0 };

  /** The journal line leading from version `base` to `base + 1`. */
  const line = (base: number): string =>
    encodeJournalLine({ base, version: base + 1, sequences: SEGMENT_SEQUENCES, changes: [] }).toString('utf8');

  let segment: string;

  beforeEach(() => {
    segment = join(dir, 'sandbox.json.journal.1');
  });

  const read = async () => {
    const seen: [number, number][] = [];
    const end = await readJournalSegment(segment, (changeSet: CoreChangeSet, number) =>
      seen.push([changeSet.version, number]),
    );
    return { seen, ...end };
  };

  it('hands over every change set in order, with its line number', async () => {
    await writeFile(segment, line(1) + line(2) + line(3));
    expect(await read()).toEqual({
      seen: [
        [2, 1],
        [3, 2],
        [4, 3],
      ],
      tornTail: false,
    });
  });

  it('ignores a last line without its newline: an append cut short, never acknowledged', async () => {
    await writeFile(segment, line(1) + line(2) + line(3).slice(0, -1));
    expect(await read()).toEqual({
      seen: [
        [2, 1],
        [3, 2],
      ],
      tornTail: true,
    });
  });

  it('ignores the start of a line cut short, down to its first byte', async () => {
    await writeFile(segment, `${line(1)}{`);
    expect(await read()).toEqual({ seen: [[2, 1]], tornTail: true });
  });

  it.each([
    ['an empty segment', () => '', /it is empty/],
    ['a segment holding only the start of a line', () => '{"v":2,"ba', /holds no whole change set/],
    ['a whole last line that does not parse', () => `${line(1)}{"v":3,"ba\n`, /line 2 is not a change set/],
    ['an unreadable line that other lines follow', () => `${line(1)}garbage\n${line(3)}`, /line 2 is not a change set/],
    [
      'a segment overwritten with NUL bytes',
      () => '\0'.repeat(200),
      /are not the start of a change set \(they hold NUL bytes\)/,
    ],
    ['lines followed by NUL bytes', () => `${line(1)}${'\0'.repeat(64)}`, /hold NUL bytes/],
    [
      'a tail that is not the start of a line',
      () => `${line(1)}xyz`,
      /last 3 characters are not the start of a change set/,
    ],
  ])('throws a DamagedSegmentError for %s', async (_, content, message) => {
    await writeFile(segment, content());
    await expect(read()).rejects.toThrow(DamagedSegmentError);
    await expect(read()).rejects.toThrow(message);
  });
});

/** A core that records its changes, with an account; `post(n)` makes receipt `n`. */
function recordingCore() {
  const core = createSandboxCore({ recordChanges: true, rateLimit: 0 });
  const { token } = core.createAccount();
  const post = (n: number) => core.handle(receiptRequest(token, n));
  /** The journal line of the changes since the last one. */
  const line = (): string => encodeJournalLine(core.takeChanges()).toString('utf8');
  return { core, post, line };
}

const viaJson = (core: SandboxCore): SandboxSnapshot => JSON.parse(JSON.stringify(core.snapshot())) as SandboxSnapshot;

const replay = async (snapshot: SandboxSnapshot | null) => replayJournal(await Journal.open(file), snapshot);

describe('replayJournal(journal, snapshot)', () => {
  it('applies every segment in order to the data file', async () => {
    const { core, post, line } = recordingCore();
    core.takeChanges();
    const start = viaJson(core);
    await post(1);
    await post(2);
    await writeFile(`${file}.journal.1`, line());
    await post(3);
    const third = line();
    await post(4);
    await writeFile(`${file}.journal.2`, third + line());
    expect(canonical(await replay(start))).toEqual(canonical(core.snapshot()));
  });

  it('skips the commits the data file already holds', async () => {
    const { core, post, line } = recordingCore();
    await post(1);
    const first = line();
    await post(2);
    const second = line();
    const middle = viaJson(core);
    await post(3);
    await writeFile(`${file}.journal.1`, first + second + line());
    const replayed = await replay(middle);
    expect(canonical(replayed)).toEqual(canonical(core.snapshot()));
    expect(replayed).toMatchObject({ version: core.version });
  });

  it('ignores the torn last line of a segment, which a restarted sandbox continues in the next', async () => {
    const { core, post, line } = recordingCore();
    core.takeChanges();
    const start = viaJson(core);
    await post(1);
    await writeFile(`${file}.journal.1`, line());
    const acknowledged = viaJson(core);
    await post(2);
    await appendFile(`${file}.journal.1`, line().slice(0, 100));
    // The restarted sandbox holds receipt 1 only; its next commit continues from there.
    const restarted = createSandboxCore({ snapshot: acknowledged, recordChanges: true });
    restarted.createAccount();
    await writeFile(`${file}.journal.2`, encodeJournalLine(restarted.takeChanges()).toString('utf8'));
    expect(canonical(await replay(start))).toEqual(canonical(restarted.snapshot()));
  });

  it('answers the snapshot itself when the journal holds nothing newer', async () => {
    const { core, post, line } = recordingCore();
    await post(1);
    await writeFile(`${file}.journal.1`, line());
    const snapshot = viaJson(core);
    expect(await replay(snapshot)).toBe(snapshot);
    await rm(`${file}.journal.1`);
    expect(await replay(null)).toBeNull();
  });

  it('throws a DataFileError naming the segment and the line for a damaged line', async () => {
    const { post, line } = recordingCore();
    await post(1);
    await writeFile(`${file}.journal.3`, `${line()}{oops}\n${line()}`);
    await expect(replay(null)).rejects.toThrow(DataFileError);
    await expect(replay(null)).rejects.toThrow(`the journal ${file}.journal.3 is damaged: line 2 is not a change set`);
  });

  it('throws a DataFileError when changes are missing between the data file and the journal', async () => {
    const { core, post, line } = recordingCore();
    const start = viaJson(core);
    line();
    await post(1);
    line();
    await post(2);
    await writeFile(`${file}.journal.1`, line());
    await expect(replay(start)).rejects.toThrow(
      /continues from version 2, but the data file and the journal before it reach version 1/,
    );
    expect(core.version).toBe(3);
  });
});

describe('Journal appends that fail', () => {
  const line = (text: string): Buffer => Buffer.from(`${text}\n`);

  it('leave nothing of a first line: no segment, no temporary file, and the next append starts one', async () => {
    const { disk, files } = failingFileSystem();
    const journal = await Journal.open(file, files);
    disk.fault = 'full';
    await expect(journal.append(line('a'), 0)).rejects.toThrow(
      /cannot append to the journal .*journal\.1 \(ENOSPC: no space left on device/,
    );
    disk.fault = 'read-only';
    await expect(journal.append(line('a'), 0)).rejects.toThrow(/EROFS/);
    expect(await readdir(dir)).toEqual([]);
    disk.fault = undefined;
    await journal.append(line('b'), 0);
    expect(await journalFiles(file)).toEqual(['sandbox.json.journal.3']);
    await journal.close();
  });

  it('cut a segment back to its size before the line, so only acknowledged lines stay', async () => {
    const { disk, files } = failingFileSystem();
    const journal = await Journal.open(file, files);
    await journal.append(line('first'), 0);
    disk.fault = 'full';
    await expect(journal.append(line('x'.repeat(1000)), 0)).rejects.toThrow(DataFileError);
    expect(await readFile(`${file}.journal.1`, 'utf8')).toBe('first\n');
    disk.fault = undefined;
    await journal.append(line('second'), 0);
    expect(await readFile(`${file}.journal.1`, 'utf8')).toBe('first\nsecond\n');
    expect(journal.bytes).toBe(13);
    await journal.close();
  });
});

describe('replayJournal(journal, snapshot, abandoned)', () => {
  it('throws a DataFileError when the segment a crashed sandbox was writing is gone and the data file lacks its changes', async () => {
    const { core, post, line } = recordingCore();
    const start = viaJson(core);
    await post(1);
    await writeFile(`${file}.journal.1`, line());
    const abandoned = { number: 2, base: core.version };
    await expect(replayJournal(await Journal.open(file), start, abandoned)).rejects.toThrow(
      new RegExp(`the journal ${file}.journal.2 is missing: the sandbox that last used the data file`),
    );
    // A data file that holds the segment's changes (folded before the crash) needs nothing from it.
    await post(2);
    const folded = viaJson(core);
    await expect(replayJournal(await Journal.open(file), folded, abandoned)).resolves.toBe(folded);
  });
});
