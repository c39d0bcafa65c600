import { ChangeReplay, type SandboxSnapshot } from '@boundbook/sandbox-core';
import { CorruptJournalLine } from './corrupt-journal-line';
import { DataFileError } from './data-file-error';
import type { Journal } from './journal';
import { readJournalSegment } from './read-journal-segment';

const START_AFRESH = 'move the data file and its journal files away to start afresh';

/**
 * The snapshot of the data file brought up to date with its journal: every segment, in order,
 * each change set applied once (those the snapshot already holds are skipped, see
 * {@link ChangeReplay}), the torn last line of a segment ignored. Answers `snapshot` itself
 * when no change set applies. A damaged line, or a change set that does not follow the state
 * before it (the data file replaced without its journal, say), throws a {@link DataFileError}.
 */
export async function replayJournal(
  journal: Journal,
  snapshot: SandboxSnapshot | null,
): Promise<SandboxSnapshot | null> {
  const { dataFile, segments } = journal;
  const replay = new ChangeReplay(snapshot ?? undefined);
  let applied = 0;
  for (const segment of segments) {
    try {
      await readJournalSegment(segment.path, (changeSet, line) => {
        if (changeSet.base > replay.version) {
          throw new DataFileError(
            dataFile,
            `line ${line} of the journal ${segment.path} continues from version ${changeSet.base}, but the data file and the journal before it reach version ${replay.version}: changes are missing, as when the data file is replaced without its journal; ${START_AFRESH}`,
          );
        }
        if (replay.apply(changeSet)) applied += 1;
      });
    } catch (error) {
      if (error instanceof DataFileError) throw error;
      const problem =
        error instanceof CorruptJournalLine
          ? `line ${error.line} of the journal ${segment.path} is damaged`
          : `cannot read the journal ${segment.path} (${error instanceof Error ? error.message : String(error)})`;
      throw new DataFileError(dataFile, `${problem}: ${START_AFRESH}`, { cause: error });
    }
  }
  return applied === 0 ? snapshot : replay.snapshot();
}
