import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLines } from '../../src/persistence/read-lines';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boundbook-read-lines-'));
  file = join(dir, 'lines.txt');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const linesOf = async (): Promise<[string, boolean][]> => {
  const lines: [string, boolean][] = [];
  await readLines(file, (text, terminated) => lines.push([text, terminated]));
  return lines;
};

describe('readLines(file, onLine)', () => {
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
    await expect(readLines(join(dir, 'missing'), () => undefined)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops at what onLine throws, and rejects with it', async () => {
    await writeFile(file, 'a\nb\nc\n');
    const seen: string[] = [];
    const reading = readLines(file, (text) => {
      seen.push(text);
      if (text === 'b') throw new Error('enough');
    });
    await expect(reading).rejects.toThrow('enough');
    expect(seen).toEqual(['a', 'b']);
  });
});
