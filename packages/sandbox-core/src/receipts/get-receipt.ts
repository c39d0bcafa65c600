import type { AccountOperation } from '../routing/operation';
import { findReceipt } from './find-receipt';

/**
 * `GET /receipts/{id}`: one live receipt with its disposition, documents and E4473 data.
 *
 * @example
 * ```ts
 * getReceipt(context).body; // { data: receipt }
 * ```
 */
export const getReceipt: AccountOperation = ({ account, id }) => ({
  status: 200,
  body: { data: findReceipt(account, id) },
});
