import {
  NICS_RESULTS,
  type AuditEntry,
  type DeletedReceipt,
  type Disposition,
  type E4473,
  type Receipt,
  type ReceiptDocument,
} from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation, ChangeContext } from '../state/operation';
import { inputShape, readInput, MIME_TYPE_PATTERN, dateTime, httpUrl, trimmedString } from '../support/input';
import { formatInstant, formatTimestamp, parseDateTime, utcDate } from '../support/time';
import { enqueueEvent } from '../webhooks/deliveries';
import { appendAudit, diffChanges } from './audit';
import {
  type DispositionFields,
  readDisposition,
  readReceiptCreate,
  readReceiptUpdate,
  type ReceiptCreateInput,
} from './receipt-input';
import { findReceipt } from './receipt-reads';

// The writes of receipts: each in one transaction that stores the record, appends its audit
// entry and writes the deliveries of its event.

/**
 * `POST /receipts`: records an acquisition as the next line of its book, on hand, with an
 * audit entry `created` and the event `receipt.created`.
 */
export const createReceipt: AccountOperation = (context) => {
  const input = readReceiptCreate(context.request.body, context.account, utcDate(context.nowMs));
  const receipt = recordReceipt(context, input);
  enqueueEvent(context, 'receipt.created', receipt);
  return { status: 201, body: { data: receipt } };
};

/** Stores a valid acquisition as the next line of its book, with its audit entry `created`. */
export function recordReceipt(context: ChangeContext, { book, fields, given }: ReceiptCreateInput): Receipt {
  const { store, account, nowMs } = context;
  const record = book.record.last_record + 1;
  const timestamp = formatTimestamp(nowMs);
  // The fields in the contract's order, so that every answer and event serialises the same way.
  const receipt: Receipt = {
    id: store.nextId('receipt'),
    user_id: account.record.id,
    record,
    book: book.record.name,
    status: 'on_hand',
    serial_number: fields.serial_number,
    manufacturer: fields.manufacturer,
    importer: fields.importer,
    country_of_origin: fields.country_of_origin,
    model: fields.model,
    type: fields.type,
    caliber: fields.caliber,
    receipt_date: fields.receipt_date,
    purchase_amount: fields.purchase_amount,
    received_from: fields.received_from,
    ffl_license: fields.ffl_license,
    address: fields.address,
    city: fields.city,
    state: fields.state,
    zip: fields.zip,
    disposition: null,
    documents: [],
    e4473: null,
    created_at: timestamp,
    updated_at: timestamp,
  };
  store.put(account, 'receipts', receipt);
  store.put(account, 'books', { ...book.record, last_record: record });
  const changes: AuditEntry['changes'] = {};
  for (const field of given) changes[field] = { from: null, to: receipt[field] };
  appendAudit(context, receipt.id, 'created', changes);
  return receipt;
}

/**
 * `PUT /receipts/{id}`: corrects a receipt, disposed or not. A change appends one audit entry
 * `updated` and fires `receipt.updated`; a PUT that changes nothing answers the receipt as it
 * was, with no entry, no event and the same `updated_at`.
 */
export const updateReceipt: AccountOperation = (context) => {
  const { store, request, account, id, nowMs } = context;
  const receipt = findReceipt(account, id);
  const patch = readReceiptUpdate(request.body, receipt, account.record.account_type, utcDate(nowMs));
  const changes = diffChanges(receipt, patch);
  if (Object.keys(changes).length === 0) return { status: 200, body: { data: receipt } };
  const updated: Receipt = { ...receipt, ...patch, updated_at: formatTimestamp(nowMs) };
  store.put(account, 'receipts', updated);
  appendAudit(context, id, 'updated', changes);
  enqueueEvent(context, 'receipt.updated', updated);
  return { status: 200, body: { data: updated } };
};

/**
 * `POST /receipts/{id}/dispose`: records the disposition; the receipt becomes `disposed`, gets
 * an audit entry `disposed` and fires `receipt.disposed`.
 */
export const disposeReceipt: AccountOperation = (context) => {
  const { request, account, id, nowMs } = context;
  const receipt = findReceipt(account, id);
  const disposed = recordDisposition(context, receipt, readDisposition(request.body, receipt, account, utcDate(nowMs)));
  enqueueEvent(context, 'receipt.disposed', disposed);
  return { status: 200, body: { data: disposed } };
};

/** Stores a valid disposition of an on-hand receipt, with its audit entry `disposed`. */
export function recordDisposition(context: ChangeContext, receipt: Receipt, fields: DispositionFields): Receipt {
  const timestamp = formatTimestamp(context.nowMs);
  const disposition: Disposition = { ...fields, created_at: timestamp };
  const disposed: Receipt = { ...receipt, status: 'disposed', disposition, updated_at: timestamp };
  context.store.put(context.account, 'receipts', disposed);
  appendAudit(context, receipt.id, 'disposed', {
    status: { from: receipt.status, to: disposed.status },
    disposition: { from: null, to: disposition },
  });
  return disposed;
}

/**
 * `DELETE /receipts/{id}`: soft-deletes a receipt. It leaves every list, search and count and
 * is 404 from then on; its audit trail (with an entry `deleted`) and its record number stay.
 * Fires `receipt.deleted` with the receipt plus `deleted_at`.
 */
export const deleteReceipt: AccountOperation = (context) => {
  const { store, account, id, nowMs } = context;
  const receipt = findReceipt(account, id);
  const deletedAt = formatTimestamp(nowMs);
  const deleted: DeletedReceipt = { ...receipt, deleted_at: deletedAt };
  store.remove(account, 'receipts', receipt);
  store.put(account, 'deleted_receipts', deleted);
  appendAudit(context, id, 'deleted', { deleted_at: { from: null, to: deletedAt } });
  enqueueEvent(context, 'receipt.deleted', deleted);
  return { status: 204 };
};

/** A document record to attach: the body of `POST /_sandbox/receipts/{id}/documents`. */
export interface DocumentInput {
  name: string;
  mime_type: string;
  size: number;
  url?: string;
}

/** The shape of a {@link DocumentInput}. */
export const DOCUMENT_INPUT = inputShape<DocumentInput>(
  ['name', 'mime_type', 'size', 'url'],
  () =>
    Joi.object({
      name: trimmedString(255).required(),
      mime_type: trimmedString(255).pattern(MIME_TYPE_PATTERN).required(),
      size: Joi.number().strict().integer().min(0).required(),
      url: httpUrl(2048),
    }),
  ['name', 'mime_type', 'size'],
);

/**
 * `POST /_sandbox/receipts/{id}/documents`: attaches a document record (no file) to a live
 * receipt, like a dashboard upload: no audit entry, no event, `updated_at` unchanged.
 */
export const attachDocument: AccountOperation = (context) => {
  const receipt = findReceipt(context.account, context.id);
  const { documents } = attachDocuments(context, receipt, [readInput(DOCUMENT_INPUT, context.request.body)]);
  return { status: 201, body: { data: documents.at(-1) } };
};

/** Attaches document records to a receipt, each with its own id. */
export function attachDocuments(context: ChangeContext, receipt: Receipt, inputs: readonly DocumentInput[]): Receipt {
  const { store, account, nowMs } = context;
  const added = inputs.map((input): ReceiptDocument => {
    const id = store.nextId('document');
    return {
      id,
      name: input.name,
      mime_type: input.mime_type,
      size: input.size,
      url: input.url ?? `https://sandbox.invalid/documents/${id}`,
      created_at: formatTimestamp(nowMs),
    };
  });
  const updated: Receipt = { ...receipt, documents: [...receipt.documents, ...added] };
  store.put(account, 'receipts', updated);
  return updated;
}

/** E4473 data to set: the body of `PUT /_sandbox/receipts/{id}/e4473`. */
export type E4473Input = Omit<E4473, 'nics_transaction_number'> & { nics_transaction_number?: string | null };

/** The shape of an {@link E4473Input}. */
export const E4473_INPUT = inputShape<E4473Input>(
  ['form_4473_serial', 'transferee_name', 'nics_transaction_number', 'nics_result', 'completed_at'],
  () =>
    Joi.object({
      form_4473_serial: trimmedString(255).required(),
      transferee_name: trimmedString(255).required(),
      nics_transaction_number: trimmedString(50).allow(null),
      nics_result: Joi.string()
        .trim()
        .valid(...NICS_RESULTS)
        .required(),
      completed_at: dateTime().required(),
    }),
  ['form_4473_serial', 'transferee_name', 'nics_result', 'completed_at'],
);

/**
 * `PUT /_sandbox/receipts/{id}/e4473`: sets or replaces a live receipt's E4473 data, like a
 * dashboard change: no audit entry, no event, `updated_at` unchanged. `completed_at` is kept
 * in UTC.
 */
export const putE4473: AccountOperation = (context) => {
  const receipt = findReceipt(context.account, context.id);
  const updated = setE4473(context, receipt, readInput(E4473_INPUT, context.request.body));
  return { status: 200, body: { data: updated } };
};

/** Sets a receipt's E4473 data. */
export function setE4473(context: ChangeContext, receipt: Receipt, input: E4473Input): Receipt {
  const e4473: E4473 = {
    form_4473_serial: input.form_4473_serial,
    transferee_name: input.transferee_name,
    nics_transaction_number: input.nics_transaction_number ?? null,
    nics_result: input.nics_result,
    completed_at: formatInstant(parseDateTime(input.completed_at) ?? 0),
  };
  const updated: Receipt = { ...receipt, e4473 };
  context.store.put(context.account, 'receipts', updated);
  return updated;
}
