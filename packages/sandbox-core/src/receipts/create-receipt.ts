import type { AuditEntry } from '@boundbook/types';
import { appendAudit } from '../audit/append-audit';
import { formatTimestamp, utcDate } from '../clock/format-timestamp';
import { readJsonObject } from '../http/read-json-object';
import { enqueueEvent } from '../outbox/enqueue-event';
import type { AccountOperation } from '../routing/operation';
import { nextId } from '../state/core-state';
import { buildReceipt } from './build-receipt';
import { readReceiptCreate } from './read-receipt-create';

/**
 * `POST /receipts`: records an acquisition as the next line of its book, on hand, with an
 * audit entry `created` and the event `receipt.created`.
 *
 * @example
 * ```ts
 * createReceipt(context).status; // 201
 * ```
 */
export const createReceipt: AccountOperation = ({ state, env, request, account, token, nowMs }) => {
  const input = readReceiptCreate(readJsonObject(request.body), account, utcDate(nowMs));
  const { book } = input;
  book.lastRecord += 1;
  const receipt = buildReceipt(
    {
      id: nextId(state, 'receipt'),
      user_id: account.record.id,
      record: book.lastRecord,
      book: book.record.name,
      timestamp: formatTimestamp(nowMs),
    },
    input.fields,
  );
  account.receipts.set(receipt.id, receipt);
  state.feed.upsert('receipts', receipt);
  account.index.put(receipt);
  book.index.put(receipt);
  const changes: AuditEntry['changes'] = {};
  for (const field of input.given) {
    changes[field] = { from: null, to: field === 'book' ? receipt.book : receipt[field] };
  }
  appendAudit(state, account, receipt.id, 'created', changes, token.id, nowMs);
  enqueueEvent(state, env, account, 'receipt.created', receipt, nowMs);
  state.version += 1;
  return { status: 201, body: { data: receipt } };
};
