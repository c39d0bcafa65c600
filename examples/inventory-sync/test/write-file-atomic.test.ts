import type { PathLike } from 'node:fs';
import { open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/write-file-atomic';
import { temporaryFolder } from './temporary-folder';

describe('writeFileAtomic(path, data)', () => {
  it('writes the data and leaves no temporary file beside it', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'state.json');

    await writeFileAtomic(path, '{"new":true}');

    expect(await readFile(path, 'utf8')).toBe('{"new":true}');
    expect(await readdir(folder)).toEqual(['state.json']);
  });

  it('replaces an existing file whole', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'state.json');
    await writeFile(path, 'a much longer old content than the new one');

    await writeFileAtomic(path, 'new');

    expect(await readFile(path, 'utf8')).toBe('new');
  });

  it('leaves the old file as it was, and no temporary file, when the write fails before the rename', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'state.json');
    await writeFile(path, 'old');
    let renamed = false;
    const crashingRename = async (): Promise<void> => {
      renamed = true;
      throw new Error('simulated crash before the rename');
    };

    await expect(writeFileAtomic(path, 'new', { open, rename: crashingRename, rm })).rejects.toThrow('simulated crash');

    expect(renamed).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await readdir(folder)).toEqual(['state.json']);
  });

  it('writes the new data to a file in the same folder before renaming it over the old one', async () => {
    const folder = await temporaryFolder();
    const path = join(folder, 'state.json');
    await writeFile(path, 'old');
    const seenAtRename: string[] = [];
    const observingRename = async (from: PathLike, to: PathLike): Promise<void> => {
      seenAtRename.push(await readFile(from, 'utf8'), await readFile(to, 'utf8'));
      await rename(from, to);
    };

    await writeFileAtomic(path, 'new', { open, rename: observingRename, rm });

    // At the rename the new data is complete in the temporary file and the old file is untouched.
    expect(seenAtRename).toEqual(['new', 'old']);
    expect(await readFile(path, 'utf8')).toBe('new');
  });
});
