import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError } from '../../src/persistence/data-file-error';
import { SnapshotFile } from '../../src/persistence/snapshot-file';
import { sampleSnapshot } from './sample-snapshot';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-snapshot-file-'));
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
    await expect(new SnapshotFile(file).read()).rejects.toThrow(
      `the data file ${file} is not valid JSON`,
    );
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
