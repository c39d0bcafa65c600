import type { CoreState } from '../state/core-state';
import { hashToken } from './hash-token';
import type { TokenRecord } from './token-record';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/**
 * The token a request's `Authorization: Bearer <token>` names, revoked or not; `undefined` when
 * the header is absent, of another scheme, or names no token of this core.
 *
 * @example
 * ```ts
 * const token = findToken(state, request.headers['authorization']);
 * ```
 */
export function findToken(state: CoreState, authorization: string | undefined): TokenRecord | undefined {
  if (authorization === undefined) return undefined;
  const match = BEARER.exec(authorization);
  if (match === null || match[1] === undefined) return undefined;
  return state.tokensByHash.get(hashToken(match[1]));
}
