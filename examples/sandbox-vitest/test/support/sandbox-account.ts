import { LogbookClient } from '@fflkit/sdk';
import { connectSandbox, type SandboxAccountCreate } from '@fflkit/sandbox';
import type { SandboxAccount, SandboxRequestLogEntry } from '@fflkit/types';
import { inject } from 'vitest';

/** A fresh sandbox account: a client holding its token, and the calls of the control API the tests use. */
export interface TestAccount {
  readonly account: SandboxAccount;
  readonly logbook: LogbookClient;
  /** `GET /_sandbox/requests`: the account's recent API requests, newest first. */
  requests(): Promise<SandboxRequestLogEntry[]>;
}

/**
 * Makes a new account in the shared sandbox (`POST /_sandbox/accounts`, no token needed): a dealer
 * unless `options` says otherwise, with the book `Main` (and `options.books`) and a token holding every
 * permission. A test that makes its own account sees no other test's records, whatever runs beside it.
 *
 * @example
 * ```ts
 * const { logbook } = await sandboxAccount();
 * await receiveFirearm(logbook, firearm);
 * ```
 */
export async function sandboxAccount(options: SandboxAccountCreate = {}): Promise<TestAccount> {
  const sandbox = connectSandbox(inject('sandboxUrl'));
  const { account, token } = await sandbox.createAccount(options);
  return {
    account,
    logbook: new LogbookClient({ token, baseUrl: sandbox.apiUrl }),
    requests: () => sandbox.requests(token),
  };
}
