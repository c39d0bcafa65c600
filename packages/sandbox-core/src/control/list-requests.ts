import type { SandboxRequestLogEntry } from '@boundbook/types';
import { formatTimestamp } from '../clock/format-timestamp';
import type { RequestLogRecord } from '../request-log/request-log-record';
import type { AccountOperation } from '../routing/operation';

/**
 * `GET /_sandbox/requests`: the account's last 100 service API requests, newest first.
 *
 * @example
 * ```ts
 * listRequests(context).body; // { data: [{ id, method: 'GET', path: '/rest/v1/receipts', ... }] }
 * ```
 */
export const listRequests: AccountOperation = ({ account }) => {
  const data = account.requests.map(renderRequest).reverse();
  return { status: 200, body: { data } };
};

function renderRequest(record: RequestLogRecord): SandboxRequestLogEntry {
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
