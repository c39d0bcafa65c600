import { createFirearmLog, type FirearmLog } from '../../src/firearm-log';

/** A firearm log that a test can wait on. */
export interface WatchedLog {
  readonly log: FirearmLog;
  /** Resolves once the log holds `count` entries; the test's time-out bounds the wait. */
  entries(count: number): Promise<void>;
}

/**
 * The receiver's own log, with its `onEntry` hook waking the tests that wait for entries, so that a
 * test awaits the delivery itself rather than sleeping.
 *
 * @example
 * ```ts
 * const watched = watchedLog();
 * await logbook.receipts.create(acquisition());
 * await watched.entries(1);
 * ```
 */
export function watchedLog(): WatchedLog {
  const waiting: (() => void)[] = [];
  const log = createFirearmLog({
    onEntry: () => {
      for (const wake of waiting.splice(0)) wake();
    },
  });
  return {
    log,
    async entries(count) {
      while (log.entries.length < count) await new Promise<void>((wake) => waiting.push(wake));
    },
  };
}
