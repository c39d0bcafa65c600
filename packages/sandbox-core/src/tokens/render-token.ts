import type { SandboxToken } from '@boundbook/types';
import type { TokenRecord } from './token-record';

/**
 * The control API's `Token` of a stored token: never the hash.
 *
 * @example
 * ```ts
 * return { status: 201, body: { data: renderToken(record), token } };
 * ```
 */
export function renderToken(record: TokenRecord): SandboxToken {
  return {
    id: record.id,
    name: record.name,
    permissions: record.permissions,
    created_at: record.created_at,
  };
}
