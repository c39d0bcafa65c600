import type { SandboxSnapshot } from '../sandbox-core-types';
import { ChangeReplay } from './change-replay';
import type { CoreChangeSet } from './core-change';

/**
 * The snapshot that `changeSets`, applied in order, make of `snapshot` (the empty state when it
 * is `undefined`); change sets the snapshot already holds are skipped. See {@link ChangeReplay}
 * to apply change sets as they are read.
 *
 * @example
 * ```ts
 * const core = createSandboxCore({ recordChanges: true });
 * const before = core.snapshot();
 * core.createAccount();
 * const after = applyChanges(before, [core.takeChanges()]); // equal in value to core.snapshot()
 * ```
 */
export function applyChanges(
  snapshot: SandboxSnapshot | undefined,
  changeSets: Iterable<CoreChangeSet>,
): SandboxSnapshot {
  const replay = new ChangeReplay(snapshot);
  for (const changeSet of changeSets) replay.apply(changeSet);
  return replay.snapshot();
}
