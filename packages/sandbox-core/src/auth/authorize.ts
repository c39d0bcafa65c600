import { ELIGIBLE_ACCOUNT_TYPES } from '@boundbook/types';
import type { AccountRecord } from '../accounts/account-record';
import { ineligibleAccount, missingPermission } from '../errors/forbidden';
import type { TokenRecord } from '../tokens/token-record';
import { requiredPermission } from './required-permission';

/**
 * The service API's 403 checks: the account type must be eligible (whatever the token holds),
 * then the token must hold the method's permission.
 *
 * @example
 * ```ts
 * authorize(account.record, token, 'POST'); // throws 403 for a read-only token
 * ```
 */
export function authorize(account: AccountRecord, token: TokenRecord, method: string): void {
  if (!(ELIGIBLE_ACCOUNT_TYPES as readonly string[]).includes(account.account_type)) {
    throw ineligibleAccount(account.account_type);
  }
  const permission = requiredPermission(method);
  if (!token.permissions.includes(permission)) throw missingPermission(permission);
}
