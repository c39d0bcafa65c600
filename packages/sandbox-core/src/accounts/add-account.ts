import type { SandboxAccount } from '@boundbook/types';
import { addBook } from '../books/add-book';
import { formatTimestamp } from '../clock/format-timestamp';
import type { CoreEnv } from '../routing/core-env';
import { createAccountState } from '../state/account-state';
import { type CoreState, nextId } from '../state/core-state';
import { issueToken } from '../tokens/issue-token';
import type { AccountInput } from './read-account-input';
import { renderAccount } from './render-account';

/** The new account and its first token, shown only here. */
export interface AddedAccount {
  account: SandboxAccount;
  token: string;
}

/**
 * Makes an isolated account with the book `Main`, the requested books, and a token holding
 * read, write and delete.
 *
 * @example
 * ```ts
 * const { account, token } = addAccount(state, env, readAccountInput({}));
 * ```
 */
export function addAccount(state: CoreState, env: CoreEnv, input: AccountInput): AddedAccount {
  const nowMs = env.now();
  const account = createAccountState(
    Object.freeze({
      id: nextId(state, 'account'),
      name: input.name,
      account_type: input.account_type,
      created_at: formatTimestamp(nowMs),
      offset_seconds: 0,
    }),
  );
  state.accounts.set(account.record.id, account);
  state.feed.upsert('accounts', account.record);
  for (const name of ['Main', ...input.books]) addBook(state, account, name, nowMs);
  const { token } = issueToken(state, env, account, ['read', 'write', 'delete'], null, nowMs);
  state.version += 1;
  return { account: renderAccount(account.record), token };
}
