import type { RequestOptions } from '@fflkit/sdk';
import { applyChanges } from './apply-changes';
import { countChangesSince } from './count-changes-since';
import { findDeletions } from './find-deletions';
import { formatBookCsv } from './format-book-csv';
import { pullChanges, type PulledChanges } from './pull-changes';
import { readSyncState } from './read-sync-state';
import { silentProgress, type SyncProgress } from './sync-progress';
import type { SyncSource } from './sync-source';
import { emptySyncState, type SyncState } from './sync-state';
import { SyncStateError } from './sync-state-error';
import { toBookRows } from './to-book-rows';
import { writeCsv } from './write-csv';
import { writeSyncState } from './write-sync-state';

/** What {@link runSync} needs. */
export interface RunSyncOptions {
  /** `logbook.receipts` of a `LogbookClient` client. */
  readonly receipts: SyncSource;
  /** The service's base URL, recorded in the checkpoint file so that another service's is refused. */
  readonly baseUrl: string;
  /** The checkpoint file, which holds the checkpoint and the mirror; made on the first sync. */
  readonly checkpointPath: string;
  /** Where the CSV goes: a file path (replaced atomically) or a stream. */
  readonly output: string | NodeJS.WritableStream;
  /** Exports only this book; every book when absent. */
  readonly book?: string;
  readonly progress?: SyncProgress;
  /** How many changes to apply and save at a time; defaults to 500. */
  readonly batchSize?: number;
  /** Stops the sync; what was pulled before is saved. */
  readonly signal?: AbortSignal;
}

/** What a sync did. */
export interface SyncReport {
  /** Changes pulled from the service: receipts created or changed since the last sync. */
  readonly pulled: number;
  readonly created: number;
  readonly updated: number;
  /** Receipts found soft-deleted and removed from the mirror. */
  readonly deleted: number;
  /** Receipts in the mirror afterwards, every book. */
  readonly receipts: number;
  /** Rows written to the CSV, header not counted. */
  readonly rows: number;
}

/**
 * One sync: reads the checkpoint file, pulls the changes since its checkpoint, removes the
 * receipts deleted since, saves the checkpoint file after each step, and writes the bound book
 * as CSV from the whole mirror.
 *
 * @example
 * ```ts
 * const logbook = new LogbookClient({ token, baseUrl });
 * const report = await runSync({ receipts: logbook.receipts, baseUrl, checkpointPath: '.sync-checkpoint.json', output: 'bound-book.csv' });
 * console.log(`${report.pulled} changes, ${report.deleted} deletions`);
 * ```
 */
export async function runSync(options: RunSyncOptions): Promise<SyncReport> {
  const { receipts, baseUrl, checkpointPath, progress = silentProgress } = options;
  const requestOptions: RequestOptions = options.signal === undefined ? {} : { signal: options.signal };
  const save = (next: SyncState): Promise<void> => writeSyncState(checkpointPath, next);

  const saved = await readSyncState(checkpointPath);
  if (saved !== null && saved.baseUrl !== baseUrl) {
    throw new SyncStateError(
      `${checkpointPath} holds the bound book of ${saved.baseUrl}, not of ${baseUrl}: pass another --checkpoint (and --out) for this service`,
    );
  }

  progress.begin('pulling changes', await countChangesSince(receipts, saved?.checkpoint ?? null, requestOptions));
  let pull: PulledChanges;
  try {
    pull = await pullChanges({
      receipts,
      state: saved ?? emptySyncState(baseUrl),
      save,
      batchSize: options.batchSize ?? 500,
      onChange: () => progress.advance(),
      requestOptions,
    });
  } finally {
    progress.end();
  }

  let state = pull.state;
  const mirror = new Map(state.receipts.map((receipt) => [receipt.id, receipt]));
  const removed = applyChanges(mirror, {
    upserted: [],
    deleted: await findDeletions(receipts, mirror, state.userId, progress, requestOptions),
  });
  if (removed.deleted > 0) {
    state = { ...state, receipts: [...removed.mirror.values()].sort((a, b) => a.id - b.id) };
    await save(state);
  }

  const rows = toBookRows(state.receipts, options.book === undefined ? {} : { book: options.book });
  await writeCsv(options.output, formatBookCsv(rows));
  return {
    pulled: pull.pulled,
    created: pull.created,
    updated: pull.updated,
    deleted: removed.deleted,
    receipts: state.receipts.length,
    rows: rows.length,
  };
}
