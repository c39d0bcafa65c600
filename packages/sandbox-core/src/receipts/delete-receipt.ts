import type { DeletedReceipt } from '@boundbook/types';
import { appendAudit } from '../audit/append-audit';
import { formatTimestamp } from '../clock/format-timestamp';
import { enqueueEvent } from '../outbox/enqueue-event';
import type { AccountOperation } from '../routing/operation';
import { findReceipt } from './find-receipt';
import { freezeReceipt } from './freeze-receipt';

/**
 * `DELETE /receipts/{id}`: soft-deletes a receipt. It leaves every list, search and count and
 * is 404 from then on; its audit trail (with an entry `deleted`) and its record number stay.
 * Fires `receipt.deleted` with the receipt plus `deleted_at`.
 *
 * @example
 * ```ts
 * deleteReceipt(context).status; // 204
 * ```
 */
export const deleteReceipt: AccountOperation = ({ state, env, account, token, id, nowMs }) => {
  const receipt = findReceipt(account, id);
  const deletedAt = formatTimestamp(nowMs);
  const deleted: DeletedReceipt = freezeReceipt({ ...receipt, deleted_at: deletedAt });
  account.receipts.delete(id);
  account.deletedReceipts.set(id, deleted);
  account.index.remove(receipt);
  account.books.get(receipt.book)?.index.remove(receipt);
  state.feed.remove('receipts', id);
  state.feed.upsert('deleted_receipts', deleted);
  appendAudit(state, account, id, 'deleted', { deleted_at: { from: null, to: deletedAt } }, token.id, nowMs);
  enqueueEvent(state, env, account, 'receipt.deleted', deleted, nowMs);
  state.version += 1;
  return { status: 204 };
};
