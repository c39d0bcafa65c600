import { barProgress } from './bar-progress';
import { lineProgress } from './line-progress';
import type { SyncProgress } from './sync-progress';

/**
 * The progress report that suits `stream`: a bar on a terminal, plain lines anywhere else.
 *
 * @example
 * ```ts
 * const progress = createProgress(process.stderr);
 * ```
 */
export function createProgress(stream: NodeJS.WritableStream & { readonly isTTY?: boolean }): SyncProgress {
  return stream.isTTY === true ? barProgress(stream) : lineProgress(stream);
}
