import { formatTimestamp } from '../clock/format-timestamp';
import { recordNotFound } from '../errors/not-found';
import type { AccountOperation } from '../routing/operation';

/**
 * `DELETE /_sandbox/tokens/{id}`: revokes a token of the account, the caller's own included;
 * a revoked or unknown token is 404.
 *
 * @example
 * ```ts
 * revokeToken(context).status; // 204
 * ```
 */
export const revokeToken: AccountOperation = ({ state, account, id, nowMs }) => {
  const token = account.tokens.get(id);
  if (token === undefined || token.revoked_at !== null) throw recordNotFound();
  const revoked = Object.freeze({ ...token, revoked_at: formatTimestamp(nowMs) });
  account.tokens.set(id, revoked);
  state.tokensByHash.set(revoked.hash, revoked);
  state.feed.upsert('tokens', revoked);
  state.version += 1;
  return { status: 204 };
};
