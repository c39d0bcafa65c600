import type { SandboxAccount } from '@boundbook/types';
import type { AccountRecord } from './account-record';

/**
 * The control API's `Account` of a stored account.
 *
 * @example
 * ```ts
 * renderAccount(account.record).account_type; // 'dealer'
 * ```
 */
export function renderAccount(record: AccountRecord): SandboxAccount {
  return {
    id: record.id,
    name: record.name,
    account_type: record.account_type,
    created_at: record.created_at,
  };
}
