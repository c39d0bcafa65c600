import type { CoreChangeSet } from '@boundbook/sandbox-core';
import { CorruptJournalLine } from './corrupt-journal-line';
import { parseJournalLine } from './parse-journal-line';
import { readLines } from './read-lines';

/** What reading a segment found besides its change sets. */
export interface SegmentEnd {
  /** Whether the last line was cut short or unreadable, and so ignored. */
  readonly tornTail: boolean;
}

/**
 * Reads one journal segment line by line and hands each change set to `onChangeSet` with its
 * line number. A last line without its newline, or that does not parse, is the trace of an
 * append cut short by a crash: it was never acknowledged, so it is ignored. An unreadable line
 * anywhere else throws a {@link CorruptJournalLine}. Whatever `onChangeSet` throws stops the
 * reading and rejects the promise.
 */
export async function readJournalSegment(
  path: string,
  onChangeSet: (changeSet: CoreChangeSet, line: number) => void,
): Promise<SegmentEnd> {
  let line = 0;
  let unreadable: { line: number; cause: unknown } | undefined;
  let torn = false;
  await readLines(path, (text, terminated) => {
    line += 1;
    if (unreadable !== undefined) throw new CorruptJournalLine(unreadable.line, { cause: unreadable.cause });
    if (!terminated) {
      torn = true;
      return;
    }
    let changeSet: CoreChangeSet;
    try {
      changeSet = parseJournalLine(text);
    } catch (cause) {
      unreadable = { line, cause };
      return;
    }
    onChangeSet(changeSet, line);
  });
  return { tornTail: torn || unreadable !== undefined };
}
