import {
  ELIGIBLE_ACCOUNT_TYPES,
  type Permission,
  type SandboxRequestLogFault,
  type ServiceOperationId,
} from '@fflkit/types';
import { findToken } from '../accounts/tokens';
import type { CoreEnv, OperationResult } from '../state/operation';
import type { FaultRecord, TokenRecord } from '../state/records';
import type { CoreStore } from '../state/store';
import {
  ApiError,
  ineligibleAccount,
  missingPermission,
  routeNotFound,
  tooManyRequests,
  unauthenticated,
} from '../support/errors';
import type { SandboxRequest, SandboxResponse } from '../support/request';
import { accountNow } from '../support/time';
import type { AnswerCache } from './answer-cache';
import { delayedAnswer, failedAnswer, faultMark, ruleAfter, ruleBefore } from './fault-injection';
import type { FixedWindowLimiter } from './rate-limiter';
import { isApiPath, matchRoute } from './routes';

/** One core's state and the services its requests use. */
export interface CoreRuntime {
  readonly store: CoreStore;
  readonly env: CoreEnv;
  readonly limiter: FixedWindowLimiter;
  /** The answers of cached routes, kept while the state is unchanged. */
  readonly answers: AnswerCache;
}

/** The answer to a request, with what the request log records of it. */
export interface DispatchOutcome {
  response: SandboxResponse;
  /** The token the request named (revoked ones included). */
  token: TokenRecord | undefined;
  /** The operation of the service API it addressed, if any. */
  operationId?: ServiceOperationId | undefined;
  /** What a fault rule of the account did to it, if one acted. */
  fault?: SandboxRequestLogFault | undefined;
}

/**
 * Answers one request: finds its route (404 without a token when none), then checks in the
 * contract's order 401, 429 (service API only), the account's fault rules (service API only),
 * 403 (service API only), and runs the operation in one transaction of the store, which checks
 * 404 and 422: an operation that throws changes nothing. A rule after acting is consulted once
 * the operation succeeded, its change kept. Every `ApiError` becomes the response here, with the
 * rate-limit headers of a counted request; any other exception is a defect and propagates.
 */
export function dispatchRequest(runtime: CoreRuntime, request: SandboxRequest): DispatchOutcome {
  const { store, env, limiter, answers } = runtime;
  const method = request.method.toUpperCase();
  // HEAD is GET without a body (RFC 9110, 9.3.2): the same checks, status and headers.
  const head = method === 'HEAD';
  const match = matchRoute(head ? 'GET' : method, request.path);
  // Service API requests name their token even on an unknown route, for the request log.
  const needsToken = isApiPath(request.path) || (match !== undefined && match.route.scope !== 'public');
  const token = needsToken ? findToken(store, request.headers['authorization'], env) : undefined;
  const operationId = match?.route.scope === 'api' ? match.route.operationId : undefined;
  let rateHeaders: Record<string, string> = {};
  let realMs = 0;
  // A delay rule that fired: it holds back whatever the request is answered, a refusal included.
  let delay: FaultRecord | undefined;
  const outcome = (response: SandboxResponse, fault?: SandboxRequestLogFault): DispatchOutcome =>
    delay === undefined
      ? { response, token, operationId, fault }
      : { response: delayedAnswer(response, delay), token, operationId, fault: faultMark(delay) };
  try {
    if (match === undefined) throw routeNotFound(method, request.path);
    const { route, id, key } = match;
    if (route.scope === 'public') {
      assertJsonBody(request);
      const result = store.transaction(() => route.operation({ store, env, request }));
      return outcome(toResponse(result, {}));
    }
    const account = token?.revoked_at === null ? store.accounts.get(token.account_id) : undefined;
    if (token === undefined || account === undefined) throw unauthenticated();
    const nowMs = accountNow(env.now(), account.record);
    const faulted = route.scope === 'api' && account.faults.length > 0;
    if (route.scope === 'api') {
      // Real time, not the account's clock: advancing the clock does not reset the limit.
      realMs = env.now();
      const decision = limiter.hit(token.id, realMs);
      rateHeaders = decision.headers;
      if (!decision.allowed) throw tooManyRequests();
      const before = faulted ? ruleBefore(account, route.operationId) : undefined;
      if (before?.action === 'delay') delay = before;
      else if (before !== undefined)
        return outcome(withoutBody(failedAnswer({ rule: before, rateHeaders, realMs }), head), faultMark(before));
      if (!(ELIGIBLE_ACCOUNT_TYPES as readonly string[]).includes(account.record.account_type)) {
        throw ineligibleAccount(account.record.account_type);
      }
      const permission = requiredPermission(head ? 'GET' : method);
      if (!token.permissions.includes(permission)) throw missingPermission(permission);
    }
    assertJsonBody(request);
    const context = { store, env, request, account, token, id, key, nowMs };
    const result =
      route.cached === true
        ? answers.answer(route.operation, context)
        : store.transaction(() => route.operation(context));
    // The change is made and kept; only then does a rule after acting fail the answer.
    const after = faulted && delay === undefined && result.status < 300 ? ruleAfter(account, operationId!) : undefined;
    if (after !== undefined) {
      return outcome(
        withoutBody(failedAnswer({ rule: after, rateHeaders, realMs, withheld: result.status }), head),
        faultMark(after, result.status),
      );
    }
    return outcome(toResponse(result, rateHeaders, head));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const headers = { ...rateHeaders, ...error.headers };
    return outcome(toResponse({ status: error.status, body: error.body }, headers, head));
  }
}

/** A faulted answer to `HEAD`, without its body, as every answer to `HEAD`. */
function withoutBody(response: SandboxResponse, head: boolean): SandboxResponse {
  if (!head || response.body === undefined) return response;
  const { body: _body, ...rest } = response;
  return rest;
}

/**
 * 415 for a body sent as anything but JSON: the wire format of both APIs. A page of another
 * origin can send a form or text/plain body without asking the browser first, but not JSON, so
 * this also keeps such pages from driving the sandbox. A body without a Content-Type is read as
 * JSON.
 */
function assertJsonBody(request: SandboxRequest): void {
  if (request.body === undefined || request.body === '') return;
  const type = request.headers['content-type'];
  if (type === undefined || JSON_MEDIA_TYPE.test(type)) return;
  throw new ApiError(415, {
    message: `The request body must be JSON, sent with Content-Type: application/json; this request sent ${type.split(';')[0]?.trim() || 'an empty Content-Type'}.`,
  });
}

const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The permission a method needs on the service API: read for GET, write for POST and PUT, delete for DELETE. */
function requiredPermission(method: string): Permission {
  if (method === 'GET') return 'read';
  if (method === 'DELETE') return 'delete';
  return 'write';
}

function toResponse(result: OperationResult, headers: Record<string, string>, head = false): SandboxResponse {
  const all = result.headers === undefined ? headers : { ...headers, ...result.headers };
  return result.body === undefined || head
    ? { status: result.status, headers: all }
    : { status: result.status, headers: all, body: result.body };
}
