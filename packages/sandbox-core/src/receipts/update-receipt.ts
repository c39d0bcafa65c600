import { appendAudit } from '../audit/append-audit';
import { diffChanges } from '../audit/diff-changes';
import { formatTimestamp, utcDate } from '../clock/format-timestamp';
import { readJsonObject } from '../http/read-json-object';
import { enqueueEvent } from '../outbox/enqueue-event';
import type { AccountOperation } from '../routing/operation';
import { findReceipt } from './find-receipt';
import { readReceiptUpdate } from './read-receipt-update';
import { replaceReceipt } from './replace-receipt';

/**
 * `PUT /receipts/{id}`: corrects a receipt, disposed or not. A change appends one audit entry
 * `updated` and fires `receipt.updated`; a PUT that changes nothing answers the receipt as it
 * was, with no entry, no event and the same `updated_at`.
 *
 * @example
 * ```ts
 * // body: { "model": "EX-9 Compact OR", "purchase_amount": 399 }
 * updateReceipt(context).status; // 200
 * ```
 */
export const updateReceipt: AccountOperation = ({ state, env, request, account, token, id, nowMs }) => {
  const receipt = findReceipt(account, id);
  const body = readJsonObject(request.body);
  const patch = readReceiptUpdate(body, receipt, account.record.account_type, utcDate(nowMs));
  const changes = diffChanges(receipt, patch);
  if (Object.keys(changes).length === 0) return { status: 200, body: { data: receipt } };
  const updated = replaceReceipt(state, account, receipt, { ...receipt, ...patch, updated_at: formatTimestamp(nowMs) });
  appendAudit(state, account, id, 'updated', changes, token.id, nowMs);
  enqueueEvent(state, env, account, 'receipt.updated', updated, nowMs);
  state.version += 1;
  return { status: 200, body: { data: updated } };
};
