import type { HmacSha256Hex, RandomBytes, Sha256Hex } from '../support/crypto';
import type { SandboxRequest } from '../support/request';
import type { TokenRecord } from './records';
import type { AccountState, CoreStore } from './store';

// What an operation of the service API or the control API gets and gives back.

/** What varies between runs, resolved from the core's options once. */
export interface CoreEnv {
  /** Wall-clock epoch milliseconds. */
  readonly now: () => number;
  /** Random bytes for tokens, secrets and delivery ids. */
  readonly randomBytes: RandomBytes;
  /** How tokens are hashed for storage and lookup. */
  readonly sha256Hex: Sha256Hex;
  /** How deliveries are signed. */
  readonly hmacSha256Hex: HmacSha256Hex;
  /** The most accounts the core holds at once. */
  readonly maxAccounts: number;
}

/** What an operation answers on success; errors are thrown as `ApiError`. */
export interface OperationResult {
  status: number;
  /** Headers of the answer, for one that is not JSON (a CSV export). */
  headers?: Record<string, string>;
  body?: unknown;
}

/** What an operation that needs no token gets. */
export interface PublicContext {
  readonly store: CoreStore;
  readonly env: CoreEnv;
  readonly request: SandboxRequest;
}

/** What an operation made with a token of an account gets. */
export interface AccountContext extends PublicContext {
  readonly account: AccountState;
  readonly token: TokenRecord;
  /** The route's numeric `:id` segment; `0` on routes without one. */
  readonly id: number;
  /** The text of the route's `:id` or `:key` segment; `''` without one. */
  readonly key: string;
  /** The account's clock when the request arrived, in epoch milliseconds. */
  readonly nowMs: number;
}

/** What a change to an account's records needs: where, when, and on whose behalf. */
export type ChangeContext = Pick<AccountContext, 'store' | 'env' | 'account' | 'nowMs'> & {
  /** The token that made the change; absent for the sandbox's own changes (fixtures). */
  readonly token?: TokenRecord | undefined;
};

/** An operation of the service API or the control API. */
export type AccountOperation = (context: AccountContext) => OperationResult;

/** An operation that needs no token (making an account). */
export type PublicOperation = (context: PublicContext) => OperationResult;
