import { RATE_LIMIT_PER_MINUTE } from '@boundbook/types';
import { addAccount } from './accounts/add-account';
import { readAccountInput } from './accounts/read-account-input';
import { accountNow } from './clock/account-now';
import { DeliveryEngine } from './deliveries/delivery-engine';
import { PendingAnswer } from './deliveries/pending-answer';
import { resolveHmacSha256Hex } from './deliveries/resolve-hmac-sha256-hex';
import { sendWithoutTransport } from './deliveries/send-without-transport';
import { ApiError } from './errors/api-error';
import { pooledRandomBytes } from './random/pooled-random-bytes';
import { webRandomBytes } from './random/web-random-bytes';
import { FixedWindowLimiter } from './rate-limit/fixed-window-limiter';
import { logRequest } from './request-log/log-request';
import { AnswerCache } from './routing/answer-cache';
import type { CoreRuntime } from './routing/core-runtime';
import { dispatchRequest } from './routing/dispatch-request';
import { isApiPath } from './routing/is-api-path';
import type {
  CreateAccountInput,
  CreatedAccount,
  SandboxCoreInstance,
  SandboxCoreOptions,
  SandboxRequest,
  SandboxResponse,
} from './sandbox-core-types';
import { applyChanges } from './state/apply-changes';
import { createCoreState } from './state/core-state';
import { restoreState } from './state/restore-state';
import { snapshotState } from './state/snapshot-state';
import { resolveSha256Hex } from './tokens/resolve-sha256-hex';

/**
 * Makes a sandbox core: the service's behaviour as a transport-free state machine. Each core
 * holds its own state; two cores share nothing.
 *
 * @example
 * ```ts
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
export function createSandboxCore(options: SandboxCoreOptions = {}): SandboxCoreInstance {
  const rateLimit = options.rateLimit ?? RATE_LIMIT_PER_MINUTE;
  if (!Number.isSafeInteger(rateLimit) || rateLimit < 0) {
    throw new TypeError(
      `[@boundbook/sandbox-core] rateLimit must be a whole number of requests per minute, or 0 to lift the limit; got ${String(rateLimit)}`,
    );
  }
  if (options.sendDelivery !== undefined && typeof options.sendDelivery !== 'function') {
    throw new TypeError(
      '[@boundbook/sandbox-core] sendDelivery must be a function that sends a delivery request and resolves with { status } or { error }',
    );
  }
  const snapshot =
    options.changes === undefined ? options.snapshot : applyChanges(options.snapshot, options.changes);
  const runtime: CoreRuntime = {
    state: snapshot === undefined ? createCoreState() : restoreState(snapshot),
    env: {
      now: options.now ?? (() => Date.now()),
      randomBytes: options.randomBytes ?? pooledRandomBytes(webRandomBytes),
      sha256Hex: resolveSha256Hex(options.sha256Hex),
    },
    limiter: new FixedWindowLimiter(rateLimit),
    answers: new AnswerCache(),
  };
  const { state, env } = runtime;
  if (options.recordChanges === true) state.feed.start(state.version);
  const deliveries = new DeliveryEngine({
    state,
    now: env.now,
    send: options.sendDelivery ?? sendWithoutTransport,
    hmacSha256Hex: resolveHmacSha256Hex(options.hmacSha256Hex),
  });

  function answer(request: SandboxRequest): SandboxResponse {
    const startedMs = env.now();
    const { response, token } = dispatchRequest(runtime, request);
    const account = token === undefined ? undefined : state.accounts.get(token.account_id);
    if (account !== undefined && isApiPath(request.path)) {
      logRequest(state, account, {
        request,
        status: response.status,
        receivedMs: accountNow(startedMs, account.record),
        durationMs: Math.max(0, env.now() - startedMs),
      });
    }
    return response;
  }

  return {
    async handle(request: SandboxRequest): Promise<SandboxResponse> {
      const response = answer(request);
      // Started before the listeners hear of new work, so that the attempts this answer waits
      // for (and a clock advance's hold on its account) are taken first.
      const completion = response.body instanceof PendingAnswer ? deliveries.complete(response.body) : undefined;
      deliveries.notifyIfScheduled();
      return completion === undefined ? response : { ...response, body: await completion };
    },
    createAccount(input: CreateAccountInput = {}): CreatedAccount {
      try {
        return addAccount(state, env, readAccountInput({ ...input }));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const details = JSON.stringify(error.body.errors ?? {});
        // The refusal stays reachable as `cause`, for callers that word it as their own.
        throw new TypeError(`[@boundbook/sandbox-core] createAccount: ${error.body.message} ${details}`, { cause: error });
      }
    },
    get version(): number {
      return state.version;
    },
    snapshot: () => snapshotState(state),
    takeChanges: () => state.feed.take(state.version, state.sequences),
    deliveries,
  };
}
