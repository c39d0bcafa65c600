import type { AccountType, Permission, SandboxAccount } from '@boundbook/types';
import type { CoreSnapshot } from './state/core-snapshot';

/**
 * A request as any transport hands it to the core: the Hapi server, MSW handlers or a test.
 * The core parses the body itself so that every face answers malformed JSON the same way.
 */
export interface SandboxRequest {
  /** HTTP method, upper-case. */
  method: string;
  /** Path from the origin, such as `/rest/v1/receipts/12` or `/_sandbox/clock`. */
  path: string;
  /** Raw query string without the leading `?`; `''` when there is none. */
  query: string;
  /** Request headers with lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Raw body text; `undefined` when the request has no body. */
  body?: string | undefined;
}

/** The core's answer: a status, headers and a JSON-serialisable body (absent for 204). */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

/** How the core is made: everything that varies between runs comes in here. */
export interface SandboxCoreOptions {
  /** Wall-clock milliseconds since the epoch; each account's clock adds its own offset. */
  now?: () => number;
  /** Fills a buffer with random bytes (tokens, secrets, delivery ids). */
  randomBytes?: (length: number) => Uint8Array;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number;
  /** State to start from, as returned by {@link SandboxCore.snapshot}. */
  snapshot?: SandboxSnapshot;
}

/** Input of {@link SandboxCore.createAccount}, the same as `POST /_sandbox/accounts`. */
export interface CreateAccountInput {
  account_type?: AccountType;
  name?: string;
  books?: string[];
}

/** A new account and its first token (read, write and delete), shown only here. */
export interface CreatedAccount {
  account: SandboxAccount;
  token: string;
}

/** A new token of an existing account. */
export interface CreateTokenInput {
  permissions: Permission[];
  name?: string;
}

/**
 * The whole persistent state as plain JSON. Records are immutable: a change replaces the record
 * object, so a persister may cache each record's serialisation by object identity.
 */
export interface SandboxSnapshot {
  format: 1;
  [collection: string]: unknown;
}

/** The service's behaviour as a transport-free state machine. */
export interface SandboxCore {
  /** Answers one request to `/rest/v1/*` or `/_sandbox/*`; anything else is a 404. */
  handle(request: SandboxRequest): Promise<SandboxResponse>;
  /** Makes an isolated account with the book `Main` and a token holding every permission. */
  createAccount(input?: CreateAccountInput): CreatedAccount;
  /** Increases by one with every state change; a persister writes when it moves. */
  readonly version: number;
  /** The persistent state, for {@link SandboxCoreOptions.snapshot}. */
  snapshot(): SandboxSnapshot;
}

/** The core that `createSandboxCore()` makes: its snapshot's collections are typed. */
export interface SandboxCoreInstance extends SandboxCore {
  /** The persistent state: arrays of the stored records and the id sequences. */
  snapshot(): CoreSnapshot;
}
