import { createSandboxCore, type SandboxSnapshot } from '@fflkit/sandbox-core';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openDatabase } from '../../src/persistence/data-file';
import { Journal, replayJournal } from '../../src/persistence/journal';

/** The state a sandbox restarted on `file` would begin with: the data file and its journal. */
export async function readStateOnDisk(file: string): Promise<SandboxSnapshot | null> {
  const database = await openDatabase(file);
  return replayJournal(await Journal.open(file), database.data);
}

/**
 * A snapshot as a core lists it after restoring it, through JSON: snapshots with the same state
 * compare equal whatever order their collections were built in.
 */
export function canonical(snapshot: SandboxSnapshot | null): unknown {
  if (snapshot === null) return null;
  const restored = createSandboxCore({ snapshot: JSON.parse(JSON.stringify(snapshot)) as SandboxSnapshot });
  return JSON.parse(JSON.stringify(restored.snapshot())) as unknown;
}

/** The names of the journal segments beside `file`, by ascending number. */
export async function journalFiles(file: string): Promise<string[]> {
  const prefix = `${basename(file)}.journal.`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  return names
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
}

/** Every line of every journal segment beside `file`, parsed, in order. */
export async function journalLines(file: string): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  for (const name of await journalFiles(file)) {
    const text = await readFile(join(dirname(file), name), 'utf8');
    for (const line of text.split('\n').slice(0, -1)) lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  return lines;
}

/** A process id no process has: Linux gives out ids below 2^22. */
const GONE_PID = 2 ** 30;

/**
 * Makes the lock of `file` look as a process killed with SIGKILL leaves it: still there, naming
 * a process that is gone. A sandbox made in this process and never stopped then stands for a
 * crashed one, and the next start takes the lock over.
 */
export async function abandonLock(file: string): Promise<void> {
  const lock = `${file}.lock`;
  const record = JSON.parse(await readFile(lock, 'utf8')) as Record<string, unknown>;
  await writeFile(lock, JSON.stringify({ ...record, pid: GONE_PID }));
}
