import type { CoreState } from '../state/core-state';
import type { TokenRecord } from './token-record';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/**
 * The token a request's `Authorization: Bearer <token>` names, revoked or not; `undefined` when
 * the header is absent, of another scheme, or names no token of this core. Tokens are looked up
 * by the hash `sha256Hex` gives, as they are stored.
 *
 * @example
 * ```ts
 * const token = findToken(state, request.headers['authorization'], env.sha256Hex);
 * ```
 */
export function findToken(
  state: CoreState,
  authorization: string | undefined,
  sha256Hex: (text: string) => string,
): TokenRecord | undefined {
  if (authorization === undefined) return undefined;
  const match = BEARER.exec(authorization);
  if (match === null || match[1] === undefined) return undefined;
  return state.tokensByHash.get(sha256Hex(match[1]));
}
