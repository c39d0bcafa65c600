import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxSnapshot } from '@boundbook/sandbox-core';
import { Low, Memory } from 'lowdb';
import { DataFileError } from './data-file-error';
import { SnapshotFile } from './snapshot-file';

/** A lowdb database holding one sandbox snapshot; `data` is `null` until something is saved. */
export type SnapshotDatabase = Low<SandboxSnapshot | null>;

/**
 * Opens the sandbox's lowdb database and reads it: the JSON data file at `file` (its
 * directories are created; see {@link SnapshotFile}), or lowdb's `Memory` adapter when `file` is
 * `undefined`. A missing file reads as `null`. The data file is the snapshot that the journal
 * beside it continues (see {@link replayJournal}).
 */
export async function openDatabase(file: string | undefined): Promise<SnapshotDatabase> {
  if (file === undefined) return new Low<SandboxSnapshot | null>(new Memory(), null);
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw new DataFileError(file, `cannot make the folder of the data file ${file} (${String(error)})`, {
      cause: error,
    });
  }
  const database = new Low<SandboxSnapshot | null>(new SnapshotFile(file), null);
  await database.read();
  return database;
}
