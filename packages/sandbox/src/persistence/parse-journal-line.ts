import { CORE_COLLECTIONS, type CoreChangeSet, type Sequences } from '@boundbook/sandbox-core';

const COLLECTIONS: ReadonlySet<unknown> = new Set(CORE_COLLECTIONS);

/**
 * The change set of one journal line (without its newline), as {@link encodeJournalLine} wrote
 * it. Throws the `SyntaxError` of `JSON.parse` for text that is not JSON, and a `TypeError`
 * for JSON that is not a change set. The records themselves are taken as they are.
 */
export function parseJournalLine(text: string): CoreChangeSet {
  const line = JSON.parse(text) as Record<string, unknown> | null;
  if (typeof line !== 'object' || line === null) throw new TypeError('a journal line is an object');
  const { v: version, base, sequences, changes } = line;
  if (!Number.isSafeInteger(version) || !Number.isSafeInteger(base) || (base as number) > (version as number)) {
    throw new TypeError('a journal line has whole numbers v and base, base not above v');
  }
  if (typeof sequences !== 'object' || sequences === null || !Array.isArray(changes)) {
    throw new TypeError('a journal line has sequences and a list of changes');
  }
  for (const change of changes as Record<string, unknown>[]) {
    const known =
      typeof change === 'object' &&
      change !== null &&
      COLLECTIONS.has(change['collection']) &&
      (change['op'] === 'remove' ? 'id' in change : change['op'] === 'upsert' && isRecord(change['record']));
    if (!known) throw new TypeError(`a journal line holds an unknown change: ${JSON.stringify(change).slice(0, 200)}`);
  }
  return {
    version: version as number,
    base: base as number,
    sequences: sequences as Sequences,
    changes: changes as CoreChangeSet['changes'],
  };
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'id' in value;
}
