import type { Disposition } from '@boundbook/types';
import { appendAudit } from '../audit/append-audit';
import { formatTimestamp, utcDate } from '../clock/format-timestamp';
import { readJsonObject } from '../http/read-json-object';
import { enqueueEvent } from '../outbox/enqueue-event';
import type { AccountOperation } from '../routing/operation';
import { findReceipt } from './find-receipt';
import { readDisposition } from './read-disposition';
import { replaceReceipt } from './replace-receipt';

/**
 * `POST /receipts/{id}/dispose`: records the disposition; the receipt becomes `disposed`, gets
 * an audit entry `disposed` and fires `receipt.disposed`.
 *
 * @example
 * ```ts
 * // body: { "disposition_date": "2025-04-02", "disposed_to": "John Q. Example", "form_4473_serial": "2025-000123" }
 * disposeReceipt(context).status; // 200
 * ```
 */
export const disposeReceipt: AccountOperation = ({ state, env, request, account, token, id, nowMs }) => {
  const receipt = findReceipt(account, id);
  const fields = readDisposition(readJsonObject(request.body), receipt, account, utcDate(nowMs));
  const timestamp = formatTimestamp(nowMs);
  const disposition: Disposition = Object.freeze({ ...fields, created_at: timestamp });
  const disposed = replaceReceipt(state, account, receipt, {
    ...receipt,
    status: 'disposed',
    disposition,
    updated_at: timestamp,
  });
  if (disposition.form_4473_serial !== null) account.form4473Serials.add(disposition.form_4473_serial);
  const changes = {
    status: { from: receipt.status, to: disposed.status },
    disposition: { from: null, to: disposition },
  };
  appendAudit(state, account, id, 'disposed', changes, token.id, nowMs);
  enqueueEvent(state, env, account, 'receipt.disposed', disposed, nowMs);
  state.version += 1;
  return { status: 200, body: { data: disposed } };
};
