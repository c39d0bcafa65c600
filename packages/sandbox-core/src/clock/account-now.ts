import type { AccountRecord } from '../accounts/account-record';

/**
 * A moment of the wall clock on the account's clock: plus every advance of that account.
 *
 * @example
 * ```ts
 * const nowMs = accountNow(env.now(), account.record);
 * ```
 */
export function accountNow(wallMs: number, account: AccountRecord): number {
  return wallMs + account.offset_seconds * 1000;
}
