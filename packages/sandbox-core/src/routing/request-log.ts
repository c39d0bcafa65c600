import type { SandboxRequestLogEntry } from '@boundbook/types';
import type { AccountOperation } from '../state/operation';
import type { RequestLogRecord } from '../state/records';
import type { AccountState, CoreStore } from '../state/store';
import type { SandboxRequest } from '../support/request';
import { formatTimestamp } from '../support/time';

// The account's recent service API requests, for the control API: diagnostics, not data. The log
// does not move the state's version and is not part of a snapshot, so a request answered with an
// error still changes no persistent state.

/** Requests kept per account; older ones are dropped. */
const REQUEST_LOG_LIMIT = 100;

// Headers that carry credentials besides the bearer token; an integrator's proxy or client may
// add them, and the log must never show them back.
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key']);

/** What is known of a request once it is answered. */
export interface AnsweredRequest {
  request: SandboxRequest;
  status: number;
  /** The account's clock when the request arrived. */
  receivedMs: number;
  durationMs: number;
}

/** Records a service API request in the account's log, with credentials redacted. */
export function logRequest(store: CoreStore, account: AccountState, answered: AnsweredRequest): void {
  const { request } = answered;
  const record: RequestLogRecord = Object.freeze({
    id: (store.lastRequestId += 1),
    method: request.method.toUpperCase(),
    path: request.path,
    query: redactQuery(request.query),
    status: answered.status,
    duration_ms: answered.durationMs,
    received_ms: answered.receivedMs,
    headers: Object.freeze(redactHeaders(request.headers)),
  });
  account.requests.push(record);
  if (account.requests.length > REQUEST_LOG_LIMIT) account.requests.shift();
  store.tell({ kind: 'request', account, record });
}

// Query parameters that carry credentials when a client puts them in the URL.
const SECRET_PARAMETERS = /^(?:access_token|token|api_key|apikey|key|secret|password)$/i;

/** The query as sent, with the value of every credential parameter, or of any `sbx_` token, redacted. */
function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1) return part;
      const name = part.slice(0, equals);
      const value = part.slice(equals + 1);
      return SECRET_PARAMETERS.test(name) || /sbx_/i.test(value) ? `${name}=[redacted]` : part;
    })
    .join('&');
}

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

/** `GET /_sandbox/requests`: the account's last service API requests, newest first. */
export const listRequests: AccountOperation = ({ account }) => {
  const data = account.requests.map(renderRequest).reverse();
  return { status: 200, body: { data } };
};

/** The control API's `RequestLogEntry` of a logged request. */
export function renderRequest(record: RequestLogRecord): SandboxRequestLogEntry {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    query: record.query,
    status: record.status,
    duration_ms: record.duration_ms,
    at: formatTimestamp(record.received_ms),
    headers: record.headers,
  };
}
