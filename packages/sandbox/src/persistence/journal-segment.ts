import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** One file of the journal: `NAME.journal.N` beside the data file `NAME`. */
export interface JournalSegment {
  /** Its place in the journal: segments are replayed by ascending number. */
  readonly number: number;
  readonly path: string;
  /** Its size in bytes when it was listed. */
  readonly bytes: number;
}

/**
 * The path of segment `number` of the journal of `dataFile`.
 */
export function journalSegmentPath(dataFile: string, number: number): string {
  return `${dataFile}.journal.${number}`;
}

/**
 * The journal segments beside `dataFile`, by ascending number; none when its folder is missing.
 */
export async function listJournalSegments(dataFile: string): Promise<JournalSegment[]> {
  const folder = dirname(dataFile);
  const prefix = `${basename(dataFile)}.journal.`;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const segments: JournalSegment[] = [];
  for (const name of names) {
    const suffix = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    if (!/^[1-9]\d{0,14}$/.test(suffix)) continue;
    const path = join(folder, name);
    segments.push({ number: Number(suffix), path, bytes: (await stat(path)).size });
  }
  return segments.sort((a, b) => a.number - b.number);
}
