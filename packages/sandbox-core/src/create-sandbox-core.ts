import { RATE_LIMIT_PER_MINUTE } from '@boundbook/types';
import { addAccount } from './accounts/add-account';
import { readAccountInput } from './accounts/read-account-input';
import { accountNow } from './clock/account-now';
import { ApiError } from './errors/api-error';
import { webRandomBytes } from './random/web-random-bytes';
import { FixedWindowLimiter } from './rate-limit/fixed-window-limiter';
import { logRequest } from './request-log/log-request';
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
import { createCoreState } from './state/core-state';
import { restoreState } from './state/restore-state';
import { snapshotState } from './state/snapshot-state';

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
  const runtime: CoreRuntime = {
    state: options.snapshot === undefined ? createCoreState() : restoreState(options.snapshot),
    env: { now: options.now ?? (() => Date.now()), randomBytes: options.randomBytes ?? webRandomBytes },
    limiter: new FixedWindowLimiter(rateLimit),
  };
  const { state, env } = runtime;

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
      return answer(request);
    },
    createAccount(input: CreateAccountInput = {}): CreatedAccount {
      try {
        return addAccount(state, env, readAccountInput({ ...input }));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const details = JSON.stringify(error.body.errors ?? {});
        throw new TypeError(`[@boundbook/sandbox-core] createAccount: ${error.body.message} ${details}`);
      }
    },
    get version(): number {
      return state.version;
    },
    snapshot: () => snapshotState(state),
  };
}
