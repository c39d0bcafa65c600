import type { SyncProgress } from './sync-progress';

/**
 * Progress as plain lines, for a stderr that is a file or a pipe (CI logs), where a redrawn bar
 * would be noise: one line when a step begins and one when it ends.
 *
 * @example
 * ```ts
 * const progress = lineProgress(process.stderr);
 * // inventory-sync: pulling changes (up to 120)...
 * // inventory-sync: pulling changes: 118 done
 * ```
 */
export function lineProgress(stream: NodeJS.WritableStream): SyncProgress {
  let current = '';
  let count = 0;
  return {
    begin(step, expected) {
      current = step;
      count = 0;
      stream.write(`inventory-sync: ${step} (up to ${expected})...\n`);
    },
    advance() {
      count++;
    },
    end() {
      stream.write(`inventory-sync: ${current}: ${count} done\n`);
    },
  };
}
