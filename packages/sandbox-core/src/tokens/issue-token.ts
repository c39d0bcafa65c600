import type { Permission } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import { randomBase62 } from '../random/random-base62';
import type { CoreEnv } from '../routing/core-env';
import type { AccountState } from '../state/account-state';
import { type CoreState, nextId } from '../state/core-state';
import type { TokenRecord } from './token-record';

/** Characters of randomness after the `sbx_` prefix: about 190 bits. */
const TOKEN_LENGTH = 32;

/** A new token: its record and the token string, which is shown only once. */
export interface IssuedToken {
  record: TokenRecord;
  token: string;
}

/**
 * Makes a token of an account and registers it by the hash of its string.
 *
 * @example
 * ```ts
 * const { record, token } = issueToken(state, env, account, ['read'], 'Inventory sync', nowMs);
 * ```
 */
export function issueToken(
  state: CoreState,
  env: CoreEnv,
  account: AccountState,
  permissions: readonly Permission[],
  name: string | null,
  nowMs: number,
): IssuedToken {
  const token = `sbx_${randomBase62(env.randomBytes, TOKEN_LENGTH)}`;
  const record: TokenRecord = Object.freeze({
    id: nextId(state, 'token'),
    name,
    permissions: Object.freeze([...permissions]) as Permission[],
    created_at: formatTimestamp(nowMs),
    account_id: account.record.id,
    hash: env.sha256Hex(token),
    revoked_at: null,
  });
  account.tokens.set(record.id, record);
  state.tokensByHash.set(record.hash, record);
  state.feed.upsert('tokens', record);
  return { record, token };
}
