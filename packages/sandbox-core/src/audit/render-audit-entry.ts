import type { AuditEntry } from '@boundbook/types';
import type { AuditRecord } from './audit-record';

/**
 * The control API's `AuditEntry` of a stored entry.
 *
 * @example
 * ```ts
 * trail.map(renderAuditEntry);
 * ```
 */
export function renderAuditEntry(record: AuditRecord): AuditEntry {
  return {
    id: record.id,
    action: record.action,
    changes: record.changes,
    token_id: record.token_id,
    occurred_at: record.occurred_at,
  };
}
