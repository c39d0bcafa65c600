import { addAccount } from '../accounts/add-account';
import { readAccountInput } from '../accounts/read-account-input';
import { readJsonObject } from '../http/read-json-object';
import type { PublicOperation } from '../routing/operation';

/**
 * `POST /_sandbox/accounts`: a new isolated account and its first token; needs no token.
 *
 * @example
 * ```ts
 * createAccount({ state, env, request }).status; // 201
 * ```
 */
export const createAccount: PublicOperation = ({ state, env, request }) => {
  const input = readAccountInput(readJsonObject(request.body));
  const { account, token } = addAccount(state, env, input);
  return { status: 201, body: { data: account, token } };
};
