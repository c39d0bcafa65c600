import {
  ELIGIBLE_ACCOUNT_TYPES,
  type Permission,
  type SandboxRequestLogFault,
  type ServiceOperationId,
} from '@fflkit/types';
import { findToken } from '../accounts/tokens';
import type { CoreEnv, OperationResult } from '../state/operation';
import type { FaultRecord, TokenRecord } from '../state/records';
import type { AccountState, CoreStore } from '../state/store';
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
import { isApiPath, matchRoute, type RouteMatch } from './routes';

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

/** A request on its way through the steps, with what the steps before found out. */
interface Dispatch {
  readonly runtime: CoreRuntime;
  readonly request: SandboxRequest;
  /** The method to route and check: `GET` for a `HEAD`, which is GET without a body (RFC 9110, 9.3.2). */
  readonly method: string;
  /** The route, found by the first step. */
  match?: RouteMatch | undefined;
  /** The token named, revoked or not; for the request log. */
  token?: TokenRecord | undefined;
  /** The account of a valid token. */
  account?: AccountState;
  /** Real time when the request arrived, which the rate limit counts: advancing the clock does not reset it. */
  realMs: number;
  /** The account's clock when the request arrived. */
  nowMs: number;
  /** The rate-limit headers of a counted request, which every answer to it carries. */
  rateHeaders: Readonly<Record<string, string>>;
  /** A delay rule that fired: it holds back whatever the request is answered, a refusal included. */
  delay?: FaultRecord;
  /** What the operation answered. */
  result?: OperationResult;
}

/** An answer a step ends the request with, and the fault rule's act behind it, if any. */
interface Answer {
  readonly response: SandboxResponse;
  readonly fault?: SandboxRequestLogFault;
}

/**
 * One check or action of a request: it passes (`undefined`), answers with an {@link Answer}
 * (a fault rule's), or throws an `ApiError` whose status and body are the answer.
 */
type Step = (dispatch: Dispatch) => Answer | undefined;

/**
 * The steps of every request, in the order of checks the contract documents (openapi.yaml and
 * sandbox.yaml, "Order of checks"): the route (404 before any check), the token (401), the rate
 * limit (429) and the fault rules that act before the operation, the account type and the
 * permission (403), the body's type (415), the operation (its own 404 and 422, in one
 * transaction), and the fault rules that act once it succeeded. The service API's checks skip
 * control calls, and a public call (making an account) skips the token.
 */
const STEPS: readonly Step[] = [
  findRoute,
  authenticate,
  countRate,
  faultBefore,
  checkAccountType,
  checkPermission,
  checkBody,
  runOperation,
  faultAfter,
];

/**
 * Answers one request through {@link STEPS}. Every `ApiError` becomes the response here, with the
 * rate-limit headers of a counted request; any other exception is a defect and propagates. The
 * answer to `HEAD` loses its body here, whatever step made it.
 */
export function dispatchRequest(runtime: CoreRuntime, request: SandboxRequest): DispatchOutcome {
  const upper = request.method.toUpperCase();
  const dispatch: Dispatch = {
    runtime,
    request,
    method: upper === 'HEAD' ? 'GET' : upper,
    realMs: 0,
    nowMs: 0,
    rateHeaders: {},
  };
  let answer: Answer | undefined;
  try {
    for (let at = 0; answer === undefined && at < STEPS.length; at += 1) answer = STEPS[at]!(dispatch);
    answer ??= { response: toResponse(dispatch.result!, dispatch.rateHeaders) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    answer = {
      response: toResponse({ status: error.status, body: error.body }, { ...dispatch.rateHeaders, ...error.headers }),
    };
  }
  const { route } = dispatch.match ?? {};
  const operationId = route?.scope === 'api' ? route.operationId : undefined;
  const response = upper === 'HEAD' ? withoutBody(answer.response) : answer.response;
  const { delay, token } = dispatch;
  return delay === undefined
    ? { response, token, operationId, fault: answer.fault }
    : { response: delayedAnswer(response, delay), token, operationId, fault: faultMark(delay) };
}

/**
 * The route of the method and path: 404 without a token when none answers them. A service API
 * request names its token even on an unknown route, for the request log.
 */
function findRoute(dispatch: Dispatch): undefined {
  const { runtime, request, method } = dispatch;
  dispatch.match = matchRoute(method, request.path);
  if (isApiPath(request.path) || (dispatch.match !== undefined && dispatch.match.route.scope !== 'public')) {
    dispatch.token = findToken(runtime.store, request.headers['authorization'], runtime.env);
  }
  if (dispatch.match === undefined) throw routeNotFound(request.method.toUpperCase(), request.path);
  return undefined;
}

/** 401 for a missing, unknown or revoked token, on every call but a public one. */
function authenticate(dispatch: Dispatch): undefined {
  if (dispatch.match!.route.scope === 'public') return undefined;
  const { token, runtime } = dispatch;
  const account = token?.revoked_at === null ? runtime.store.accounts.get(token.account_id) : undefined;
  if (account === undefined) throw unauthenticated();
  dispatch.account = account;
  dispatch.realMs = runtime.env.now();
  dispatch.nowMs = accountNow(dispatch.realMs, account.record);
  return undefined;
}

/** 429 once the token has spent its window (service API only); a refused request is not counted. */
function countRate(dispatch: Dispatch): undefined {
  if (dispatch.match!.route.scope !== 'api') return undefined;
  const decision = dispatch.runtime.limiter.hit(dispatch.token!.id, dispatch.realMs);
  dispatch.rateHeaders = decision.headers;
  if (!decision.allowed) throw tooManyRequests();
  return undefined;
}

/**
 * The first of the account's fault rules that acts before the operation and fires (service API
 * only): a status or a drop answers in the operation's place; a delay holds back the answer.
 */
function faultBefore(dispatch: Dispatch): Answer | undefined {
  const { match, account } = dispatch;
  if (match!.route.scope !== 'api' || account!.faults.length === 0) return undefined;
  const rule = ruleBefore(account!, match!.route.operationId);
  if (rule === undefined) return undefined;
  if (rule.action === 'delay') {
    dispatch.delay = rule;
    return undefined;
  }
  return {
    response: failedAnswer({ rule, rateHeaders: dispatch.rateHeaders, realMs: dispatch.realMs }),
    fault: faultMark(rule),
  };
}

/** 403 for an account type the API does not serve (service API only). */
function checkAccountType(dispatch: Dispatch): undefined {
  if (dispatch.match!.route.scope !== 'api') return undefined;
  const type = dispatch.account!.record.account_type;
  if (!(ELIGIBLE_ACCOUNT_TYPES as readonly string[]).includes(type)) throw ineligibleAccount(type);
  return undefined;
}

/** 403 for a token without the permission of the method (service API only). */
function checkPermission(dispatch: Dispatch): undefined {
  if (dispatch.match!.route.scope !== 'api') return undefined;
  const permission = requiredPermission(dispatch.method);
  if (!dispatch.token!.permissions.includes(permission)) throw missingPermission(permission);
  return undefined;
}

/**
 * 415 for a body sent as anything but JSON: the wire format of both APIs. A page of another
 * origin can send a form or text/plain body without asking the browser first, but not JSON, so
 * this also keeps such pages from driving the sandbox. A body without a Content-Type is read as
 * JSON.
 */
function checkBody({ request }: Dispatch): undefined {
  if (request.body === undefined || request.body === '') return undefined;
  const type = request.headers['content-type'];
  if (type === undefined || JSON_MEDIA_TYPE.test(type)) return undefined;
  throw new ApiError(415, {
    message: `The request body must be JSON, sent with Content-Type: application/json; this request sent ${type.split(';')[0]?.trim() || 'an empty Content-Type'}.`,
  });
}

const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The route's operation, in one transaction of the store (an operation that throws changes
 * nothing), or, for a cached read, the answer kept while the state is unchanged.
 */
function runOperation(dispatch: Dispatch): undefined {
  const { runtime, request, match, account, token, nowMs } = dispatch;
  const { store, env, answers } = runtime;
  const { route, id, key } = match!;
  if (route.scope === 'public') {
    dispatch.result = store.transaction(() => route.operation({ store, env, request }));
    return undefined;
  }
  const context = { store, env, request, account: account!, token: token!, id, key, nowMs };
  dispatch.result =
    route.cached === true
      ? answers.answer(route.operation, context)
      : store.transaction(() => route.operation(context));
  return undefined;
}

/**
 * The first fault rule that acts after the operation and fires, once it succeeded and no rule
 * acted before (service API only): the change is made and kept, and the answer fails.
 */
function faultAfter(dispatch: Dispatch): Answer | undefined {
  const { match, account, result, delay } = dispatch;
  if (match!.route.scope !== 'api' || account!.faults.length === 0 || delay !== undefined || result!.status >= 300)
    return undefined;
  const rule = ruleAfter(account!, match!.route.operationId);
  if (rule === undefined) return undefined;
  const withheld = result!.status;
  return {
    response: failedAnswer({ rule, rateHeaders: dispatch.rateHeaders, realMs: dispatch.realMs, withheld }),
    fault: faultMark(rule, withheld),
  };
}

/** An answer to `HEAD`: the same status and headers, without the body (RFC 9110, 9.3.2). */
function withoutBody(response: SandboxResponse): SandboxResponse {
  if (response.body === undefined) return response;
  const { body: _body, ...rest } = response;
  return rest;
}

/** The permission a method needs on the service API: read for GET, write for POST and PUT, delete for DELETE. */
function requiredPermission(method: string): Permission {
  if (method === 'GET') return 'read';
  if (method === 'DELETE') return 'delete';
  return 'write';
}

function toResponse(result: OperationResult, headers: Readonly<Record<string, string>>): SandboxResponse {
  const all = result.headers === undefined ? headers : { ...headers, ...result.headers };
  return result.body === undefined
    ? { status: result.status, headers: all }
    : { status: result.status, headers: all, body: result.body };
}
