import cliProgress from 'cli-progress';
import type { SyncProgress } from './sync-progress';

/**
 * A progress bar (cli-progress) on a terminal: one bar per step, left on screen when it ends.
 *
 * @example
 * ```ts
 * const progress = barProgress(process.stderr);
 * ```
 */
export function barProgress(stream: NodeJS.WritableStream): SyncProgress {
  let bar: cliProgress.SingleBar | undefined;
  let total = 0;
  let value = 0;
  return {
    begin(step, expected) {
      total = Math.max(expected, 1);
      value = 0;
      bar = new cliProgress.SingleBar(
        { stream, format: `${step.padEnd(22)} {bar} {value}/{total}`, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    advance() {
      value++;
      // The expected count is an estimate; grow the bar rather than overflow it.
      if (value > total) bar?.setTotal((total = value));
      bar?.update(value);
    },
    end() {
      // Fewer items than expected (already-seen changes are skipped): the step is still complete.
      bar?.setTotal(Math.max(value, 1));
      bar?.update(value);
      bar?.stop();
      bar = undefined;
    },
  };
}
