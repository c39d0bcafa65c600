import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFileError } from '../../src/persistence/data-file-error';
import { Journal } from '../../src/persistence/journal';
import { journalFiles } from './state-on-disk';

let dir: string;
let file: string;
const line = (text: string): Buffer => Buffer.from(`${text}\n`);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-journal-'));
  file = join(dir, 'sandbox.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Journal', () => {
  it('open() lists the segments beside the data file by number, ignoring other files', async () => {
    for (const name of ['sandbox.json.journal.10', 'sandbox.json.journal.2', 'sandbox.json.journal.x', 'other.json.journal.1']) {
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
    await journal.append(line('a'));
    await journal.append(line('b'));
    expect(await readFile(`${file}.journal.5`, 'utf8')).toBe('a\nb\n');
    expect(await readFile(`${file}.journal.4`, 'utf8')).toBe('old\n');
    expect(journal.bytes).toBe(8);
    await journal.close();
  });

  it('seal() ends the segment: the next append starts another; removeThrough() deletes sealed ones', async () => {
    const journal = await Journal.open(file);
    await journal.append(line('a'));
    expect(journal.seal()).toBe(1);
    await journal.append(line('b'));
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
    await expect(journal.append(line('a'))).rejects.toThrow(DataFileError);
    await expect(journal.append(line('a'))).resolves.toBeUndefined();
    expect(await readFile(`${file}.journal.2`, 'utf8')).toBe('a\n');
    await journal.close();
  });
});
