import type { SandboxRequest } from '../sandbox-core-types';
import type { AccountState } from '../state/account-state';
import type { CoreState } from '../state/core-state';
import type { RequestLogRecord } from './request-log-record';

/** Requests kept per account; older ones are dropped. */
const REQUEST_LOG_LIMIT = 100;

/** What is known of a request once it is answered. */
export interface AnsweredRequest {
  request: SandboxRequest;
  status: number;
  /** The account's clock when the request arrived. */
  receivedMs: number;
  durationMs: number;
}

/**
 * Records a service API request in the account's log, with `authorization`, `cookie`,
 * `proxy-authorization` and `x-api-key` redacted. The log is
 * diagnostics, not data: it does not move the state's version and is not part of a snapshot,
 * so a request answered with an error still changes no persistent state.
 *
 * @example
 * ```ts
 * logRequest(state, account, { request, status: 200, receivedMs, durationMs: 0.4 });
 * ```
 */
export function logRequest(state: CoreState, account: AccountState, answered: AnsweredRequest): void {
  const { request } = answered;
  const record: RequestLogRecord = Object.freeze({
    id: (state.lastRequestId += 1),
    method: request.method.toUpperCase(),
    path: request.path,
    query: request.query,
    status: answered.status,
    duration_ms: answered.durationMs,
    received_ms: answered.receivedMs,
    headers: Object.freeze(redactHeaders(request.headers)),
    account_id: account.record.id,
  });
  account.requests.push(record);
  if (account.requests.length > REQUEST_LOG_LIMIT) account.requests.shift();
}

// Headers that carry credentials besides the bearer token; an integrator's proxy or client may
// add them, and the log must never show them back.
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key']);

function redactHeaders(headers: SandboxRequest['headers']): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    copy[lower] = lower === 'authorization' ? 'Bearer [redacted]' : SECRET_HEADERS.has(lower) ? '[redacted]' : value;
  }
  return copy;
}
