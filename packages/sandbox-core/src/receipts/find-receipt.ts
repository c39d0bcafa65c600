import type { Receipt } from '@boundbook/types';
import { recordNotFound } from '../errors/not-found';
import type { AccountState } from '../state/account-state';

/**
 * A live receipt of the account; the contract's 404 for an unknown, soft-deleted or other
 * account's id.
 *
 * @example
 * ```ts
 * const receipt = findReceipt(account, id);
 * ```
 */
export function findReceipt(account: AccountState, id: number): Receipt {
  const receipt = account.receipts.get(id);
  if (receipt === undefined) throw recordNotFound();
  return receipt;
}
