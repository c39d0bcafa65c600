import type { Receipt } from '@boundbook/types';

/**
 * Freezes a receipt and the objects it holds, so that no answer body or event can change the
 * stored record: a change always makes a new receipt object.
 *
 * @example
 * ```ts
 * account.receipts.set(id, freezeReceipt(receipt));
 * ```
 */
export function freezeReceipt<T extends Receipt>(receipt: T): T {
  if (Object.isFrozen(receipt)) return receipt;
  if (receipt.disposition !== null) Object.freeze(receipt.disposition);
  if (receipt.e4473 !== null) Object.freeze(receipt.e4473);
  for (const document of receipt.documents) Object.freeze(document);
  Object.freeze(receipt.documents);
  return Object.freeze(receipt);
}
