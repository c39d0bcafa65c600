import type { AuditEntry } from '@fflkit/types';
import type { AccountOperation, ChangeContext } from '../state/operation';
import type { AuditRecord } from '../state/records';
import { recordNotFound } from '../support/errors';
import { formatTimestamp } from '../support/time';

// The audit trail of a receipt: corrections never erase (ATF Ruling 2016-1), so every change
// appends an entry of what changed, when and with which token.

/** Appends an entry to a receipt's audit trail. */
export function appendAudit(
  context: ChangeContext,
  receiptId: number,
  action: AuditEntry['action'],
  changes: AuditEntry['changes'],
): void {
  const { store, account, token, nowMs } = context;
  const entry: AuditRecord = {
    id: store.nextId('audit'),
    action,
    changes,
    token_id: token?.id ?? null,
    occurred_at: formatTimestamp(nowMs),
    receipt_id: receiptId,
  };
  store.put(account, 'audit', entry);
}

/**
 * The audit `changes` between a record and the fields a request sets: each field whose value
 * differs, with its old and new value. Empty when nothing changes.
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

/** The control API's `AuditEntry`: never the receipt id, which the path names. */
function renderAuditEntry(record: AuditRecord): AuditEntry {
  return {
    id: record.id,
    action: record.action,
    changes: record.changes,
    token_id: record.token_id,
    occurred_at: record.occurred_at,
  };
}

/**
 * `GET /_sandbox/receipts/{id}/audit`: the receipt's audit trail, oldest first; soft-deleted
 * receipts included, 404 only for a receipt the account never had.
 */
export const getReceiptAudit: AccountOperation = ({ account, id }) => {
  if (!account.receipts.has(id) && !account.deletedReceipts.has(id)) throw recordNotFound();
  return { status: 200, body: { data: account.audit.records(id).map(renderAuditEntry) } };
};
