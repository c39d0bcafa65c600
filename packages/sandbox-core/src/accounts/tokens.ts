import { PERMISSIONS, type Permission, type SandboxToken } from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation, CoreEnv } from '../state/operation';
import type { TokenRecord } from '../state/records';
import type { AccountState, CoreStore } from '../state/store';
import { randomBase62 } from '../support/crypto';
import { recordNotFound } from '../support/errors';
import { inputShape, readInput, reportDuplicates, trimmedString } from '../support/input';
import { formatTimestamp } from '../support/time';

// API tokens: made in the service's dashboard, here through the control API. Only a token's hash
// is stored; its value is shown once, when it is made.

const TOKEN_LENGTH = 32;
const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** A new token's record and its value, which is shown once and never stored. */
export interface IssuedToken {
  record: TokenRecord;
  token: string;
}

/**
 * Makes a token of the account: `sbx_` and 32 random base62 characters, or the fixed value a
 * fixtures file gives (checked there).
 */
export function issueToken(
  store: CoreStore,
  env: CoreEnv,
  account: AccountState,
  permissions: readonly Permission[],
  name: string | null,
  nowMs: number,
  token = `sbx_${randomBase62(env.randomBytes, TOKEN_LENGTH)}`,
): IssuedToken {
  const record: TokenRecord = {
    id: store.nextId('token'),
    name,
    permissions: [...permissions],
    created_at: formatTimestamp(nowMs),
    account_id: account.record.id,
    hash: env.sha256Hex(token),
    revoked_at: null,
  };
  store.put(account, 'tokens', record);
  return { record, token };
}

/** The token an `Authorization: Bearer` header names, revoked ones included. */
export function findToken(store: CoreStore, authorization: string | undefined, env: CoreEnv): TokenRecord | undefined {
  const token = bearerToken(authorization);
  return token === undefined ? undefined : store.tokensByHash.get(env.sha256Hex(token));
}

/** The token of an `Authorization: Bearer` header, as sent. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/** The control API's `Token`: never the owner, the hash or the value. */
function renderToken(record: TokenRecord): SandboxToken {
  return { id: record.id, name: record.name, permissions: record.permissions, created_at: record.created_at };
}

const TOKEN_INPUT = inputShape<{ permissions: Permission[]; name?: string | null }>(
  ['permissions', 'name'],
  () =>
    Joi.object({
      permissions: Joi.array()
        .max(3)
        .items(
          Joi.string()
            .trim()
            .valid(...PERMISSIONS),
        )
        .required(),
      name: trimmedString(255).allow(null),
    }),
  ['permissions'],
);

/** `POST /_sandbox/tokens`: another token of the same account, with the permissions asked for. */
export const createToken: AccountOperation = ({ store, env, request, account, nowMs }) => {
  const input = readInput(TOKEN_INPUT, request.body, (value, errors) => {
    if (value.permissions !== undefined) reportDuplicates('permissions', value.permissions, errors);
  });
  const { record, token } = issueToken(store, env, account, input.permissions, input.name ?? null, nowMs);
  return { status: 201, body: { data: renderToken(record), token } };
};

/** `GET /_sandbox/tokens`: the account's tokens that are not revoked, in id order, never their values. */
export const listTokens: AccountOperation = ({ account }) => {
  const data: SandboxToken[] = [];
  for (const token of account.tokens.values()) if (token.revoked_at === null) data.push(renderToken(token));
  return { status: 200, body: { data } };
};

/** `DELETE /_sandbox/tokens/{id}`: revokes a token; it gets 401 from then on. */
export const revokeToken: AccountOperation = ({ store, account, id, nowMs }) => {
  const token = account.tokens.get(id);
  if (token === undefined || token.revoked_at !== null) throw recordNotFound();
  store.put(account, 'tokens', { ...token, revoked_at: formatTimestamp(nowMs) });
  return { status: 204 };
};
