/**
 * A line of a journal segment that is not a change set although more lines follow it, so it
 * cannot be the trace of an append cut short by a crash.
 */
export class CorruptJournalLine extends Error {
  override readonly name = 'CorruptJournalLine';
  /** Line number, from 1. */
  readonly line: number;

  constructor(line: number, options?: ErrorOptions) {
    super(`line ${line} is not a change set, and lines follow it`, options);
    this.line = line;
  }
}
