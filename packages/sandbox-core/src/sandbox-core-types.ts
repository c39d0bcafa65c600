import type { AccountType, Permission, SandboxAccount } from '@boundbook/types';
import type { DeliverySender } from './deliveries/delivery-sender';
import type { CoreChangeSet } from './state/core-change';
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
  /**
   * The lowercase hex SHA-256 of a string's UTF-8 bytes, with which tokens are hashed for
   * storage and lookup. Defaults to a plain JavaScript implementation that runs everywhere; a
   * server on Node passes `node:crypto`'s, which is faster.
   */
  sha256Hex?: (text: string) => string;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number;
  /**
   * The transport of webhook deliveries: sends one signed request and resolves with its status
   * or the reason it got none. The core never touches the network itself: without a transport,
   * every attempt fails with a reason saying so.
   */
  sendDelivery?: DeliverySender;
  /**
   * The lowercase hex HMAC-SHA256 of a message's UTF-8 bytes keyed with a key's UTF-8 bytes, with
   * which deliveries are signed. Defaults to a plain JavaScript implementation that runs
   * everywhere; a server on Node passes `node:crypto`'s, which is faster.
   */
  hmacSha256Hex?: (key: string, message: string) => string;
  /** State to start from, as returned by {@link SandboxCore.snapshot}. */
  snapshot?: SandboxSnapshot;
  /**
   * Change sets of {@link SandboxCore.takeChanges} to apply to `snapshot` (or to the empty state)
   * in order before starting; those the snapshot already holds are skipped.
   */
  changes?: Iterable<CoreChangeSet>;
  /**
   * Whether the core records its changes for {@link SandboxCore.takeChanges}, as a persister
   * needs. Off by default, so that a core nobody persists does not accumulate them.
   */
  recordChanges?: boolean;
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
  /**
   * The record-level changes since the last call (or since the core was made), leading to the
   * current `version`. Needs {@link SandboxCoreOptions.recordChanges}; throws a `TypeError`
   * otherwise.
   */
  takeChanges(): CoreChangeSet;
}

/**
 * The outbox of a core, for whoever dispatches its webhook deliveries in real time (the
 * sandbox's dispatcher, MSW handlers): which scheduled attempts are due on their accounts'
 * clocks, and starting them through the core's transport. Control calls (ping, redeliver, clock
 * advance) make their own attempts before answering.
 */
export interface CoreDeliveries {
  /**
   * Starts up to `limit` scheduled attempts that are due now on their accounts' clocks,
   * earliest first, through the core's `sendDelivery`. Each promise resolves once the attempt's
   * outcome is recorded (a state change to persist); none rejects.
   */
  startDue(limit: number): Promise<void>[];
  /**
   * When the next scheduled attempt falls due, in epoch milliseconds of the core's `now`
   * (earlier than now when one is overdue); `undefined` when none can start. Attempts in flight
   * and those of an account whose clock advance is running its attempts are left out.
   */
  nextDueAt(): number | undefined;
  /**
   * Calls `listener` (synchronously, so it should only schedule work) whenever attempts may have
   * fallen due or a slot may have freed: a change scheduled an attempt, an attempt ended, a clock
   * advance ended. Returns the function that unsubscribes.
   */
  subscribe(listener: () => void): () => void;
  /** Resolves once no attempt is in flight. */
  idle(): Promise<void>;
  /**
   * Stops making attempts for good: none starts any more, and the outcomes of attempts in flight
   * are dropped, so their deliveries stay pending to be attempted again after a restart.
   */
  close(): void;
}

/** The core that `createSandboxCore()` makes: its snapshot's collections are typed. */
export interface SandboxCoreInstance extends SandboxCore {
  /** The persistent state: arrays of the stored records and the id sequences. */
  snapshot(): CoreSnapshot;
  /** The outbox of webhook deliveries, for a dispatcher. */
  readonly deliveries: CoreDeliveries;
}
