import { ACCOUNT_TYPES, type SandboxAccount, type SandboxAccountCreate } from '@fflkit/types';
import Joi from 'joi';
import type { CreatedAccount } from '../control/control-calls';
import type { AccountOperation, CoreEnv, PublicOperation } from '../state/operation';
import type { AccountRecord } from '../state/records';
import type { AccountState, CoreStore } from '../state/store';
import { ApiError } from '../support/errors';
import { inputShape, readInput, reportDuplicates, type RequestBody, trimmedString } from '../support/input';
import { formatTimestamp } from '../support/time';
import { addBook } from './books';
import { issueToken } from './tokens';

// Sandbox accounts: isolated licensees, each with its books, tokens and clock.

const ACCOUNT_INPUT = inputShape<SandboxAccountCreate>(
  ['account_type', 'name', 'books'],
  () =>
    Joi.object({
      account_type: Joi.string().valid(...ACCOUNT_TYPES),
      name: trimmedString(255),
      books: Joi.array().max(50).items(trimmedString(100)),
    }),
  [],
);

/** Reads and checks an account's input; every field is optional. */
export function readAccountInput(body: RequestBody): SandboxAccountCreate {
  return readInput(ACCOUNT_INPUT, body, (value, errors) => {
    const books = value.books ?? [];
    reportDuplicates('books', books, errors);
    books.forEach((name, position) => {
      if (name === 'Main') {
        errors.add(`books.${position}`, `The books.${position} field must not be Main, which every account has.`);
      }
    });
  });
}

/**
 * Makes an isolated account (a dealer called `Sandbox account` unless told otherwise) with the
 * book `Main` plus the named books, and a token holding read, write and delete.
 */
export function addAccount(store: CoreStore, env: CoreEnv, input: SandboxAccountCreate): CreatedAccount {
  const account = openAccount(store, env, input);
  const { token } = issueToken(store, env, account, ['read', 'write', 'delete'], null, env.now());
  return { account: renderAccount(account.record), token };
}

/**
 * Makes an account with its books and no token (a fixtures file brings its own). A core holds
 * at most `maxAccounts`, so that a long-lived sandbox cannot grow without bound.
 */
export function openAccount(
  store: CoreStore,
  env: CoreEnv,
  input: SandboxAccountCreate,
  offsetSeconds = 0,
): AccountState {
  if (store.accounts.size >= env.maxAccounts) throw accountLimitReached(env.maxAccounts);
  const nowMs = env.now();
  const account = store.addAccount({
    id: store.nextId('account'),
    name: input.name ?? 'Sandbox account',
    account_type: input.account_type ?? 'dealer',
    created_at: formatTimestamp(nowMs),
    offset_seconds: offsetSeconds,
  });
  for (const name of ['Main', ...(input.books ?? [])]) addBook(store, account, name, nowMs);
  return account;
}

/** 409 for an account over the limit, saying how to get under it. */
function accountLimitReached(limit: number): ApiError {
  return new ApiError(409, {
    message: `This sandbox is at its limit of ${limit} accounts: delete the accounts you no longer need (DELETE /_sandbox/account with one of their tokens), or raise the limit (the maxAccounts option; --max-accounts on the sandbox's command line).`,
  });
}

/** The control API's `Account`: never the clock's offset. */
function renderAccount(record: AccountRecord): SandboxAccount {
  return { id: record.id, name: record.name, account_type: record.account_type, created_at: record.created_at };
}

/** `POST /_sandbox/accounts`: a new account, without a token. */
export const createAccount: PublicOperation = ({ store, env, request }) => {
  const { account, token } = addAccount(store, env, readAccountInput(request.body));
  return { status: 201, body: { data: account, token } };
};

/**
 * `DELETE /_sandbox/account`: deletes the account of the token, with every record it owns; its
 * tokens get 401 from then on, and the sandbox can hold another account in its place.
 */
export const deleteAccount: AccountOperation = ({ store, account }) => {
  store.removeAccount(account);
  return { status: 204 };
};

/**
 * `POST /_sandbox/reset`: empties the account's receipts (with their audit trails), books (back
 * to a new `Main`), endpoints, deliveries and fault rules; its tokens, clock and request log stay.
 */
export const resetAccount: AccountOperation = ({ store, account, nowMs }) => {
  store.clearContents(account);
  addBook(store, account, 'Main', nowMs);
  // Rules are not records: a reset that is taken back (a failed save) leaves them deleted.
  store.clearFaults(account);
  return { status: 204 };
};
