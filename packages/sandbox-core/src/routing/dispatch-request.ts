import { authorize } from '../auth/authorize';
import { accountNow } from '../clock/account-now';
import { ApiError } from '../errors/api-error';
import { routeNotFound } from '../errors/not-found';
import { unauthenticated } from '../errors/unauthenticated';
import { tooManyRequests } from '../rate-limit/too-many-requests';
import type { SandboxRequest, SandboxResponse } from '../sandbox-core-types';
import { findToken } from '../tokens/find-token';
import type { TokenRecord } from '../tokens/token-record';
import type { CoreRuntime } from './core-runtime';
import { isApiPath } from './is-api-path';
import { matchRoute } from './match-route';
import type { OperationResult } from './operation';
import { ROUTES } from './route-table';

/** The answer to a request, and the token it named (revoked ones included), for the log. */
export interface DispatchOutcome {
  response: SandboxResponse;
  token: TokenRecord | undefined;
}

/**
 * Answers one request: finds its route (404 without a token when none), then checks in the
 * contract's order 401, 429 (service API only), 403 (service API only), and runs the operation,
 * which checks 404 and 422. Every `ApiError` becomes the response here, with the rate-limit
 * headers of a counted request; any other exception is a defect and propagates.
 *
 * @example
 * ```ts
 * const { response } = dispatchRequest(runtime, { method: 'GET', path: '/rest/v1/books', query: '', headers });
 * ```
 */
export function dispatchRequest(runtime: CoreRuntime, request: SandboxRequest): DispatchOutcome {
  const { state, env, limiter, answers } = runtime;
  const method = request.method.toUpperCase();
  const match = matchRoute(ROUTES, method, request.path);
  // Service API requests name their token even on an unknown route, for the request log.
  const needsToken = isApiPath(request.path) || (match !== undefined && match.route.scope !== 'public');
  const token = needsToken ? findToken(state, request.headers['authorization'], env.sha256Hex) : undefined;
  let rateHeaders: Record<string, string> = {};
  try {
    if (match === undefined) throw routeNotFound(method, request.path);
    const { route, id, key } = match;
    if (route.scope === 'public') {
      return { response: toResponse(route.operation({ state, env, request }), {}), token };
    }
    const account = token?.revoked_at === null ? state.accounts.get(token.account_id) : undefined;
    if (token === undefined || account === undefined) throw unauthenticated();
    const nowMs = accountNow(env.now(), account.record);
    if (route.scope === 'api') {
      const decision = limiter.hit(token.id, nowMs);
      rateHeaders = decision.headers;
      if (!decision.allowed) throw tooManyRequests();
      authorize(account.record, token, method);
    }
    const context = { state, env, request, account, token, id, key, nowMs };
    const result = route.cached === true ? answers.answer(route.operation, context) : route.operation(context);
    return { response: toResponse(result, rateHeaders), token };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const headers = { ...rateHeaders, ...error.headers };
    return { response: { status: error.status, headers, body: error.body }, token };
  }
}

function toResponse(result: OperationResult, headers: Record<string, string>): SandboxResponse {
  return result.body === undefined
    ? { status: result.status, headers }
    : { status: result.status, headers, body: result.body };
}
