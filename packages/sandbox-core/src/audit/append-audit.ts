import type { AuditEntry } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import type { AccountState } from '../state/account-state';
import { type CoreState, nextId } from '../state/core-state';
import type { AuditRecord } from './audit-record';

/**
 * Appends an entry to a receipt's audit trail.
 *
 * @example
 * ```ts
 * appendAudit(state, account, receipt.id, 'updated', changes, token.id, nowMs);
 * ```
 */
export function appendAudit(
  state: CoreState,
  account: AccountState,
  receiptId: number,
  action: AuditEntry['action'],
  changes: AuditEntry['changes'],
  tokenId: number | null,
  nowMs: number,
): AuditRecord {
  const entry: AuditRecord = Object.freeze({
    id: nextId(state, 'audit'),
    action,
    changes: Object.freeze(changes),
    token_id: tokenId,
    occurred_at: formatTimestamp(nowMs),
    receipt_id: receiptId,
  });
  const trail = account.audit.get(receiptId);
  if (trail === undefined) account.audit.set(receiptId, [entry]);
  else trail.push(entry);
  state.feed.upsert('audit', entry);
  return entry;
}
