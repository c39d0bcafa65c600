import type { CoreChangeSet } from '@boundbook/sandbox-core';

/**
 * One line of the journal for a change set: `{"v","base","sequences","changes"}` and a newline,
 * as UTF-8 bytes to append with one write. `JSON.stringify` escapes every newline inside
 * strings, so the only newline is the last byte: a line cut short by a crash has none, which is
 * how {@link readJournalSegment} recognises it.
 */
export function encodeJournalLine(changeSet: CoreChangeSet): Buffer {
  const { version, base, sequences, changes } = changeSet;
  return Buffer.from(`${JSON.stringify({ v: version, base, sequences, changes })}\n`);
}
