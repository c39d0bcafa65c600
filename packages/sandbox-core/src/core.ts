import {
  RATE_LIMIT_PER_MINUTE,
  type SandboxAccountCreate,
  type SandboxFixtures,
  type SandboxFixturesLoaded,
} from '@fflkit/types';
import { addAccount, readAccountInput } from './accounts/accounts';
import { findToken } from './accounts/tokens';
import type { CreatedAccount } from './control/control-calls';
import type { ActivityEvent } from './control/event-stream';
import { exportFixtures, loadFixtures } from './fixtures/fixtures';
import { AnswerCache } from './routing/answer-cache';
import { type CoreRuntime, dispatchRequest } from './routing/dispatch';
import { FixedWindowLimiter, rateLimitProblem } from './routing/rate-limiter';
import { logRequest, renderRequest } from './routing/request-log';
import { isApiPath } from './routing/routes';
import type { CoreChangeSet, CoreSnapshot, SandboxSnapshot } from './state/records';
import { applyChanges, restoreStore, type SnapshotOptions, snapshotStore } from './state/snapshot';
import { type Activity, CoreStore } from './state/store';
import {
  type HmacSha256Hex,
  type RandomBytes,
  type Sha256Hex,
  checkedHmacSha256Hex,
  checkedSha256Hex,
  rememberedSha256Hex,
  pooledRandomBytes,
  webRandomBytes,
} from './support/crypto';
import { misuseError } from './support/errors';
import type { SandboxRequest, SandboxResponse } from './support/request';
import { accountNow } from './support/time';
import { type DeliverySender, sendWithoutTransport } from './webhooks/attempts';
import { PendingAnswer, renderDelivery } from './webhooks/deliveries';
import { type CoreDeliveries, DeliveryEngine } from './webhooks/delivery-engine';

/**
 * The most accounts a core holds unless told otherwise: ample for a team's test runs (each
 * account costs a few kilobytes), bounded so that a long-lived sandbox cannot grow without end.
 */
export const DEFAULT_MAX_ACCOUNTS = 10_000;

/** How a core is made: everything that varies between runs comes in here. */
export interface SandboxCoreOptions {
  /** Wall-clock milliseconds since the epoch; each account's clock adds its own offset. */
  now?: (() => number) | undefined;
  /** Fills a buffer with random bytes (tokens, secrets, delivery ids). */
  randomBytes?: RandomBytes | undefined;
  /**
   * The lowercase hex SHA-256 of a string's UTF-8 bytes, with which tokens are hashed for
   * storage and lookup. Defaults to a plain JavaScript implementation that runs everywhere; a
   * server on Node passes `node:crypto`'s, which is faster. Either way the core remembers the
   * hashes of recent tokens, so a client's repeated requests hash its token once.
   */
  sha256Hex?: Sha256Hex | undefined;
  /** Requests per minute per token; `0` lifts the limit. Defaults to 60, as the service. */
  rateLimit?: number | undefined;
  /**
   * The most accounts the core holds at once; making one more answers 409 until one is deleted
   * (`DELETE /_sandbox/account`). Defaults to {@link DEFAULT_MAX_ACCOUNTS}.
   */
  maxAccounts?: number | undefined;
  /**
   * The transport of webhook deliveries: sends one signed request and resolves with its status
   * or the reason it got none. The core never touches the network itself: without a transport,
   * every attempt fails with a reason saying so.
   */
  sendDelivery?: DeliverySender | undefined;
  /**
   * The lowercase hex HMAC-SHA256 of a message's UTF-8 bytes keyed with a key's UTF-8 bytes, with
   * which deliveries are signed. Defaults to a plain JavaScript implementation that runs
   * everywhere; a server on Node passes `node:crypto`'s, which is faster.
   */
  hmacSha256Hex?: HmacSha256Hex | undefined;
  /** State to start from, as returned by {@link SandboxCore.snapshot}. */
  snapshot?: SandboxSnapshot | undefined;
  /**
   * Change sets of {@link SandboxCore.takeChanges} to apply to `snapshot` (or to the empty state)
   * in order before starting; those the snapshot already holds are skipped.
   */
  changes?: Iterable<CoreChangeSet> | undefined;
  /**
   * Whether the core keeps its changes for {@link SandboxCore.takeChanges}, as a persister
   * needs. Off by default, so that a core nobody persists does not accumulate them.
   */
  recordChanges?: boolean | undefined;
}

/** The service's behaviour as a transport-free state machine. */
export interface SandboxCore {
  /**
   * Answers one request to `/rest/v1/*` or `/_sandbox/*`; anything else is a 404. An answer
   * that a fault rule of the account acted on carries `fault`, which the transport carries out:
   * a delay before sending it, or a dropped connection instead of it (see `TransportFault`).
   */
  handle(request: SandboxRequest): Promise<SandboxResponse>;
  /**
   * Answers as {@link handle} does, but at once when the answer waits for nothing (every answer
   * but those that wait for webhook deliveries to be attempted): a transport with nothing else
   * to wait for sends it in the same turn, without a promise per request.
   */
  respond(request: SandboxRequest): SandboxResponse | Promise<SandboxResponse>;
  /**
   * Makes an isolated account with the book `Main` and a token holding every permission, as
   * `POST /_sandbox/accounts` does. Input the control API would refuse throws that refusal: an
   * `ApiError` with its status (422) and body.
   */
  createAccount(input?: SandboxAccountCreate): CreatedAccount;
  /**
   * Loads a fixtures file (parsed), as `POST /_sandbox/fixtures` does: accounts with fixed
   * tokens, books, endpoints with fixed secrets, receipts, through the API's rules and in one
   * change. A file with any fault throws an `ApiError` (422) naming each by its path in the
   * file, and changes nothing; loading it again adds only what is missing.
   */
  loadFixtures(file: SandboxFixtures): SandboxFixturesLoaded;
  /**
   * The account of a token as a fixtures file, that token in it, as `GET /_sandbox/fixtures`
   * answers; throws a `TypeError` for a token the core does not hold.
   */
  exportFixtures(token: string): SandboxFixtures;
  /** Increases by one with every handled request (or delivery attempt) that changed the state. */
  readonly version: number;
  /**
   * The persistent state: arrays of the stored records and the id sequences. With
   * `{ jsonOnly: true }` the records kept in a compact form come as they are kept, each
   * serialising as its record, so the snapshot costs one pass of references (a persister's).
   */
  snapshot(options?: SnapshotOptions): CoreSnapshot;
  /**
   * The record-level changes since the last call (or since the core was made), leading to the
   * current `version`. Needs {@link SandboxCoreOptions.recordChanges}; throws a `TypeError`
   * otherwise. The changes stay revertible until {@link confirmChanges} is called with them.
   */
  takeChanges(): CoreChangeSet;
  /** Tells the core that a change set taken is durable: it is no longer reverted. */
  confirmChanges(changeSet: CoreChangeSet): void;
  /**
   * Takes back every change not yet confirmed, the id sequences and the version with them: the
   * state is the durable one again, as a persister needs when a write fails.
   */
  revertChanges(): void;
  /** The outbox of webhook deliveries, for a dispatcher. */
  readonly deliveries: CoreDeliveries;
  /**
   * Follows the account of a token (an `Authorization` header's value): `listener` hears of every
   * service API request of the account as it is logged, and of every delivery as it is made or
   * attempted. Answers the function that stops following, or `undefined` when the token is
   * missing, unknown or revoked (the caller answers 401).
   */
  watch(authorization: string | undefined, listener: (event: ActivityEvent) => void): (() => void) | undefined;
}

/**
 * Makes a sandbox core: the service's behaviour as a transport-free state machine. Each core
 * holds its own state; two cores share nothing.
 *
 * @example
 * ```ts
 * import { createSandboxCore } from '@fflkit/sandbox-core';
 *
 * const core = createSandboxCore({ now: () => Date.UTC(2025, 2, 14, 15) });
 * const { token } = core.createAccount();
 * const response = await core.handle({
 *   method: 'GET',
 *   path: '/rest/v1/books',
 *   query: '',
 *   headers: { authorization: `Bearer ${token}` },
 * });
 * response.status; // 200
 * ```
 */
export function createSandboxCore(options: SandboxCoreOptions = {}): SandboxCore {
  const rateProblem = rateLimitProblem(options.rateLimit);
  if (rateProblem !== undefined) throw misuseError(rateProblem);
  const rateLimit = options.rateLimit ?? RATE_LIMIT_PER_MINUTE;
  const maxAccounts = options.maxAccounts ?? DEFAULT_MAX_ACCOUNTS;
  if (!Number.isSafeInteger(maxAccounts) || maxAccounts < 1) {
    throw misuseError(`maxAccounts must be a whole number of accounts, at least 1; got ${String(maxAccounts)}`);
  }
  if (options.sendDelivery !== undefined && typeof options.sendDelivery !== 'function') {
    throw misuseError(
      'sendDelivery must be a function that sends a delivery request and resolves with { status } or { error }',
    );
  }
  const snapshot = options.changes === undefined ? options.snapshot : applyChanges(options.snapshot, options.changes);
  const store = snapshot === undefined ? new CoreStore() : restoreStore(snapshot);
  const runtime: CoreRuntime = {
    store,
    env: {
      now: options.now ?? (() => Date.now()),
      randomBytes: options.randomBytes ?? pooledRandomBytes(webRandomBytes),
      sha256Hex: rememberedSha256Hex(checkedSha256Hex(options.sha256Hex)),
      hmacSha256Hex: checkedHmacSha256Hex(options.hmacSha256Hex),
      maxAccounts,
    },
    limiter: new FixedWindowLimiter(rateLimit),
    answers: new AnswerCache(),
  };
  const { env } = runtime;
  if (options.recordChanges === true) store.startRecording();
  const deliveries = new DeliveryEngine({
    store,
    now: env.now,
    send: options.sendDelivery ?? sendWithoutTransport,
    hmacSha256Hex: env.hmacSha256Hex,
  });

  function answer(request: SandboxRequest): SandboxResponse {
    const startedMs = env.now();
    const { response, token, operationId, fault } = dispatchRequest(runtime, request);
    const account = token === undefined ? undefined : store.accounts.get(token.account_id);
    if (account !== undefined && isApiPath(request.path)) {
      logRequest(store, account, {
        request,
        status: response.status,
        operationId,
        fault,
        receivedMs: accountNow(startedMs, account.record),
        durationMs: Math.max(0, env.now() - startedMs),
        responseBody: response.body,
      });
    }
    return response;
  }

  function respond(request: SandboxRequest): SandboxResponse | Promise<SandboxResponse> {
    const response = answer(request);
    // Started before the listeners hear of new work, so that the attempts this answer waits
    // for (and a clock advance's hold on its account) are taken first.
    const completion = response.body instanceof PendingAnswer ? deliveries.complete(response.body) : undefined;
    deliveries.notifyIfScheduled();
    return completion === undefined ? response : completion.then((body) => ({ ...response, body }));
  }

  return {
    async handle(request) {
      return respond(request);
    },
    respond,
    createAccount(input = {}) {
      return store.transaction(() => addAccount(store, env, readAccountInput({ ...input })));
    },
    loadFixtures(file) {
      return store.transaction(() => loadFixtures(store, env, file));
    },
    exportFixtures(token) {
      const record = findToken(store, `Bearer ${token}`, env);
      const account = record?.revoked_at === null ? store.accounts.get(record.account_id) : undefined;
      if (account === undefined) {
        throw misuseError('exportFixtures needs a token of an account of this core, not revoked.');
      }
      return exportFixtures(account, record!, token);
    },
    get version() {
      return store.version;
    },
    snapshot: (options) => snapshotStore(store, options),
    takeChanges: () => store.takeChanges(),
    confirmChanges: (changeSet) => store.confirm(changeSet),
    revertChanges: () => store.revert(),
    deliveries,
    watch(authorization, listener) {
      const token = findToken(store, authorization, env);
      const account = token?.revoked_at === null ? store.accounts.get(token.account_id) : undefined;
      if (account === undefined) return undefined;
      const follower = (activity: Activity): void => {
        if (activity.account.record.id !== account.record.id) return;
        listener(
          activity.kind === 'request'
            ? { event: 'request', data: renderRequest(activity.record) }
            : { event: 'delivery', data: renderDelivery(activity.record) },
        );
      };
      store.followers.add(follower);
      return () => {
        store.followers.delete(follower);
      };
    },
  };
}
