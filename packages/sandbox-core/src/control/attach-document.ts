import type { ReceiptDocument } from '@boundbook/types';
import Joi from 'joi';
import { formatTimestamp } from '../clock/format-timestamp';
import { pickFields } from '../http/pick-fields';
import { readJsonObject } from '../http/read-json-object';
import { findReceipt } from '../receipts/find-receipt';
import { replaceReceipt } from '../receipts/replace-receipt';
import type { AccountOperation } from '../routing/operation';
import { nextId } from '../state/core-state';
import { FieldErrors } from '../validation/field-errors';
import { absoluteUrl, trimmedString } from '../validation/joi-rules';
import { lazySchema } from '../validation/lazy-schema';
import { MIME_TYPE_PATTERN } from '../validation/record-patterns';
import { validateFields } from '../validation/validate-fields';
import { validationFailed } from '../validation/validation-failed';

const FIELDS = ['name', 'mime_type', 'size', 'url'] as const;
const REQUIRED = new Set(['name', 'mime_type', 'size']);
const SCHEMA = lazySchema(() => Joi.object({
  name: trimmedString(255).required(),
  mime_type: trimmedString(255).pattern(MIME_TYPE_PATTERN).required(),
  size: Joi.number().strict().integer().min(0).required(),
  url: absoluteUrl(2048, ['http:', 'https:']),
}));

/**
 * `POST /_sandbox/receipts/{id}/documents`: attaches a document record (no file) to a live
 * receipt, like a dashboard upload: no audit entry, no event, `updated_at` unchanged.
 *
 * @example
 * ```ts
 * // body: { "name": "bill-of-sale.pdf", "mime_type": "application/pdf", "size": 48213 }
 * attachDocument(context).status; // 201
 * ```
 */
export const attachDocument: AccountOperation = ({ state, request, account, id, nowMs }) => {
  const receipt = findReceipt(account, id);
  const errors = new FieldErrors();
  const value = validateFields(SCHEMA, pickFields(readJsonObject(request.body), FIELDS), errors, REQUIRED);
  if (!errors.isEmpty) throw validationFailed(errors, FIELDS);
  const documentId = nextId(state, 'document');
  const document: ReceiptDocument = Object.freeze({
    id: documentId,
    name: value['name'] as string,
    mime_type: value['mime_type'] as string,
    size: value['size'] as number,
    url: (value['url'] as string | undefined) ?? `https://sandbox.invalid/documents/${documentId}`,
    created_at: formatTimestamp(nowMs),
  });
  replaceReceipt(state, account, receipt, { ...receipt, documents: [...receipt.documents, document] });
  state.version += 1;
  return { status: 201, body: { data: document } };
};
