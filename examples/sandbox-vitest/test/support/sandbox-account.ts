import { BoundBook } from '@boundbook/sdk';
import type { SandboxAccount, SandboxComponents, SandboxRequestLogEntry } from '@boundbook/types';
import { inject } from 'vitest';

/** A fresh sandbox account: a client holding its token, and the calls of the control API the tests use. */
export interface TestAccount {
  readonly account: SandboxAccount;
  readonly bb: BoundBook;
  /** `GET /_sandbox/requests`: the account's recent API requests, newest first. */
  requests(): Promise<SandboxRequestLogEntry[]>;
}

/**
 * Makes a new account in the shared sandbox (`POST /_sandbox/accounts`, no token needed): a dealer
 * unless `body` says otherwise, with the book `Main` (and `body.books`) and a token holding every
 * permission. A test that makes its own account sees
 * no other test's records, whatever runs beside it.
 *
 * @example
 * ```ts
 * const { bb } = await sandboxAccount();
 * await receiveFirearm(bb, firearm);
 * ```
 */
export async function sandboxAccount(body: SandboxComponents['schemas']['AccountCreate'] = {}): Promise<TestAccount> {
  const origin = inject('sandboxUrl');
  const response = await fetch(`${origin}/_sandbox/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST /_sandbox/accounts answered ${response.status}: ${await response.text()}`);
  const { data: account, token } = (await response.json()) as { data: SandboxAccount; token: string };
  return {
    account,
    bb: new BoundBook({ token, baseUrl: `${origin}/rest/v1` }),
    async requests() {
      const log = await fetch(`${origin}/_sandbox/requests`, { headers: { Authorization: `Bearer ${token}` } });
      return ((await log.json()) as { data: SandboxRequestLogEntry[] }).data;
    },
  };
}
