import { renderAuditEntry } from '../audit/render-audit-entry';
import { recordNotFound } from '../errors/not-found';
import type { AccountOperation } from '../routing/operation';

/**
 * `GET /_sandbox/receipts/{id}/audit`: the receipt's audit trail, oldest first; soft-deleted
 * receipts included, 404 only for a receipt the account never had.
 *
 * @example
 * ```ts
 * getReceiptAudit(context).body; // { data: [{ id, action: 'created', changes, token_id, occurred_at }] }
 * ```
 */
export const getReceiptAudit: AccountOperation = ({ account, id }) => {
  if (!account.receipts.has(id) && !account.deletedReceipts.has(id)) throw recordNotFound();
  const trail = account.audit.get(id) ?? [];
  return { status: 200, body: { data: trail.map(renderAuditEntry) } };
};
