import { createSandboxCore, type SandboxSnapshot } from '@fflkit/sandbox-core';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DataFileError,
  encodeSnapshot,
  readLines,
  SnapshotFile,
  nodeFileSystem,
  SnapshotLineParser,
} from '../../src/persistence/data-file';
import { receiptBody } from '../support/receipt-body';

/** A snapshot with every kind of member the encoder meets. */
const sampleSnapshot = (): SandboxSnapshot => ({
  format: 1,
  version: 7,
  sequences: { receipt: 2, account: 1 },
  receipts: [
    { id: 1, serial_number: 'A1', disposition: null, tags: ['x'] },
    { id: 2, serial_number: 'B"2\n', model: 'Modèle ✓', disposition: { date: '2025-01-02' } },
  ],
  audit: [{ id: 1, changes: { model: { from: null, to: 'x' } } }],
  numbers: [1, 'two', null, [3]],
  empty: [],
  note: 'text',
  missing: undefined,
});

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-data-file-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SnapshotFile', () => {
  it('read() answers null when there is no file', async () => {
    expect(await new SnapshotFile(file).read()).toBeNull();
  });

  it('write() then read() gives back the snapshot, and leaves no temporary file', async () => {
    const snapshot = sampleSnapshot();
    await new SnapshotFile(file).write(snapshot);
    expect(await new SnapshotFile(file).read()).toEqual(JSON.parse(JSON.stringify(snapshot)));
    expect(await readdir(dir)).toEqual(['sandbox.json']);
  });

  it('write() then read() keeps a snapshot larger than one chunk', async () => {
    const records = Array.from({ length: 5000 }, (_, id) => ({ id, text: `${'é'.repeat(200)}\n${id}` }));
    await new SnapshotFile(file).write({ format: 1, records });
    expect(await new SnapshotFile(file).read()).toEqual({ format: 1, records });
  });

  it.each([
    ['pretty-printed JSON', JSON.stringify({ format: 1, receipts: [{ id: 1 }, { id: 2 }] }, null, 2)],
    ['JSON on one line', JSON.stringify({ format: 1, receipts: [{ id: 1 }] })],
    ['CRLF line ends', '{\r\n"format": 1,\r\n"receipts": [\r\n{"id":1}\r\n]\r\n}\r\n'],
  ])('read() parses %s, as a hand edit may leave the file', async (_, json) => {
    await writeFile(file, json);
    expect(await new SnapshotFile(file).read()).toEqual(JSON.parse(json));
  });

  it('writes requested together land in order, the last one winning', async () => {
    const adapter = new SnapshotFile(file);
    await Promise.all([1, 2, 3].map((version) => adapter.write({ format: 1, version })));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ format: 1, version: 3 });
  });

  it('read() throws a DataFileError naming the file when it is not JSON', async () => {
    await writeFile(file, '{"format": 1,');
    const reading = new SnapshotFile(file).read();
    await expect(reading).rejects.toThrow(DataFileError);
    await expect(new SnapshotFile(file).read()).rejects.toThrow(`the data file ${file} is not valid JSON`);
  });

  it('read() throws a DataFileError for a file in the line layout cut short', async () => {
    await writeFile(file, '{\n"format": 1,\n"receipts": [\n{"id":1},\n{"id"');
    await expect(new SnapshotFile(file).read()).rejects.toThrow(`the data file ${file} is not valid JSON`);
  });

  it('read() throws a DataFileError when the file holds JSON that is not an object', async () => {
    await writeFile(file, '[1, 2]');
    await expect(new SnapshotFile(file).read()).rejects.toThrow(/does not hold a sandbox snapshot/);
  });

  it('write() throws a DataFileError when the file cannot be replaced, and the old file stays', async () => {
    await new SnapshotFile(file).write({ format: 1, version: 1 });
    const blocked = join(dir, 'blocked.json');
    await mkdir(blocked);
    await expect(new SnapshotFile(blocked).write({ format: 1 })).rejects.toThrow(DataFileError);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ format: 1, version: 1 });
  });
});

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

const linesOf = async (): Promise<[string, boolean][]> => {
  const lines: [string, boolean][] = [];
  await readLines(file, nodeFileSystem, (text, terminated) => lines.push([text, terminated]));
  return lines;
};

describe('readLines(file, nodeFileSystem, onLine)', () => {
  it('hands over each line and whether a newline ended it', async () => {
    await writeFile(file, 'one\ntwo\n\nthree');
    expect(await linesOf()).toEqual([
      ['one', true],
      ['two', true],
      ['', true],
      ['three', false],
    ]);
  });

  it('joins lines across reads and keeps multi-byte characters whole', async () => {
    const long = 'é✓'.repeat(700_000);
    await writeFile(file, `${long}\nshort\n${long}`);
    expect(await linesOf()).toEqual([
      [long, true],
      ['short', true],
      [long, false],
    ]);
  });

  it('hands over nothing for an empty file, and rejects with ENOENT for a missing one', async () => {
    await writeFile(file, '');
    expect(await linesOf()).toEqual([]);
    await expect(readLines(join(dir, 'missing'), nodeFileSystem, () => undefined)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('stops at what onLine throws, and rejects with it', async () => {
    await writeFile(file, 'a\nb\nc\n');
    const seen: string[] = [];
    const reading = readLines(file, nodeFileSystem, (text) => {
      seen.push(text);
      if (text === 'b') throw new Error('enough');
    });
    await expect(reading).rejects.toThrow('enough');
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('SnapshotFile and the core', () => {
  it('writes a snapshot taken for writing, and reads it back in the form the core keeps, to the same state', async () => {
    const core = createSandboxCore({ rateLimit: 0 });
    const { token } = core.createAccount();
    for (const n of [1, 2, 3]) {
      const response = await core.handle({
        method: 'POST',
        path: '/rest/v1/receipts',
        query: '',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: receiptBody(n),
      });
      expect(response.status).toBe(201);
    }
    await new SnapshotFile(file).write(core.snapshot({ jsonOnly: true }));
    const read = await new SnapshotFile(file).read();
    expect((read!['audit'] as unknown[]).every((entry) => !Object.hasOwn(entry as object, 'changes'))).toBe(true);
    expect(JSON.parse(JSON.stringify(read))).toEqual(JSON.parse(JSON.stringify(core.snapshot())));
    expect(createSandboxCore({ snapshot: read! }).snapshot()).toEqual(core.snapshot());
  });
});
