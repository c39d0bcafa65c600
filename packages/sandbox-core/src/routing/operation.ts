import type { SandboxRequest } from '../sandbox-core-types';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import type { TokenRecord } from '../tokens/token-record';
import type { CoreEnv } from './core-env';

/** What an operation answers on success; errors are thrown as `ApiError`. */
export interface OperationResult {
  status: number;
  body?: unknown;
}

/** What an operation that needs no token gets. */
export interface PublicContext {
  readonly state: CoreState;
  readonly env: CoreEnv;
  readonly request: SandboxRequest;
}

/** What an operation made with a token of an account gets. */
export interface AccountContext extends PublicContext {
  readonly account: AccountState;
  readonly token: TokenRecord;
  /** The route's numeric `:id` segment; `0` on routes without one. */
  readonly id: number;
  /** The text of the route's `:id` or `:uuid` segment (a UUID in lower case); `''` without one. */
  readonly key: string;
  /** The account's clock when the request arrived, in epoch milliseconds. */
  readonly nowMs: number;
}

/** An operation of the service API or the control API. */
export type AccountOperation = (context: AccountContext) => OperationResult;

/** An operation that needs no token (making an account). */
export type PublicOperation = (context: PublicContext) => OperationResult;
