import type { AuditEntry } from '@boundbook/types';

/**
 * The audit `changes` between a record and the fields a request sets: each field whose value
 * differs, with its old and new value. Empty when nothing changes.
 *
 * @example
 * ```ts
 * diffChanges({ model: 'A', caliber: '9mm' }, { model: 'B', caliber: '9mm' });
 * // { model: { from: 'A', to: 'B' } }
 * ```
 */
export function diffChanges(
  current: Readonly<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>>,
): AuditEntry['changes'] {
  const changes: AuditEntry['changes'] = {};
  for (const field of Object.keys(patch)) {
    const from = current[field];
    const to = patch[field];
    if (from !== to) changes[field] = { from, to };
  }
  return changes;
}
