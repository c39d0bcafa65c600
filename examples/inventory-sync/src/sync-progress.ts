/**
 * How a sync reports its progress: one step at a time (pulling the changes, then checking for
 * deletions), each begun with the number of items expected, advanced item by item, and ended.
 * The expected number is an estimate: a step may do more or fewer.
 *
 * @example
 * ```ts
 * progress.begin('pulling changes', 120);
 * progress.advance();
 * progress.end();
 * ```
 */
export interface SyncProgress {
  begin(step: string, expected: number): void;
  advance(): void;
  end(): void;
}

/**
 * Reports nothing: for tests and for runs whose stderr is not watched.
 *
 * @example
 * ```ts
 * await runSync({ ...options, progress: silentProgress });
 * ```
 */
export const silentProgress: SyncProgress = {
  begin() {},
  advance() {},
  end() {},
};
