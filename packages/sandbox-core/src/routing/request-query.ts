import type { SandboxRequestLog } from '@fflkit/types';
import type { AccountOperation } from '../state/operation';
import type { RequestLogRecord } from '../state/records';
import { fieldInvalid } from '../support/input';
import { QueryReader } from '../support/request';
import { renderRequest } from './request-log';
import { isServiceOperation } from './routes';

// `GET /_sandbox/requests`: the request log filtered for an assertion, and whether the log
// dropped entries the filters could have matched, so that no assertion passes on a log that
// lost entries.

const PARAMETERS = ['method', 'path', 'operation', 'status', 'from', 'to', 'faulted', 'body'];

/** What the filters of one call keep. */
interface RequestFilter {
  method?: string;
  path?: string;
  operation?: string;
  status?: number;
  fromMs?: number;
  toMs?: number;
  faulted?: boolean;
  body?: Record<string, unknown>;
}

/**
 * `GET /_sandbox/requests`: the account's logged service API requests that match every filter,
 * newest first, with `truncated` (entries the filters could have matched were dropped) and
 * `dropped` (every entry the account's log dropped).
 */
export const listRequests: AccountOperation = ({ account, request }) => {
  const filter = readFilter(request.query);
  const { requests } = account;
  const data = [];
  for (let at = requests.length - 1; at >= 0; at -= 1) {
    const record = requests.at(at);
    if (matches(record, filter)) data.push(renderRequest(record));
  }
  const { dropped, lastDroppedMs } = requests;
  const truncated = dropped > 0 && (filter.fromMs === undefined || filter.fromMs <= lastDroppedMs);
  const body: SandboxRequestLog = { data, truncated, dropped };
  return { status: 200, body };
};

function readFilter(query: string): RequestFilter {
  const reader = new QueryReader(query);
  const filter: RequestFilter = {};
  const method = reader.text('method', 20);
  if (method !== undefined && !/^[A-Z]+$/.test(method)) {
    throw fieldInvalid(
      'method',
      `The method field must be an HTTP method in capitals, such as POST; ${method} is none.`,
    );
  }
  const path = reader.text('path', 2048);
  const operation = reader.text('operation', 100);
  const status = reader.integer('status', 0, 599);
  const fromMs = reader.dateTime('from');
  const toMs = reader.dateTime('to');
  const faulted = reader.oneOf('faulted', ['true', 'false'] as const);
  const body = reader.text('body', 65_536);
  reader.assertValid(PARAMETERS);
  if (path !== undefined && !path.startsWith('/')) {
    throw fieldInvalid(
      'path',
      `The path field must be a path as sent, starting with /, such as /rest/v1/receipts/12; ${path} is none.`,
    );
  }
  if (operation !== undefined && !isServiceOperation(operation)) {
    throw fieldInvalid(
      'operation',
      `The operation field must name an operation of the service API, such as createReceipt; ${operation} is none.`,
    );
  }
  if (fromMs !== undefined && toMs !== undefined && toMs <= fromMs) {
    throw fieldInvalid('to', 'The to field must be a moment after from.');
  }
  if (method !== undefined) filter.method = method;
  if (path !== undefined) filter.path = path;
  if (operation !== undefined) filter.operation = operation;
  if (status !== undefined) filter.status = status;
  if (fromMs !== undefined) filter.fromMs = fromMs;
  if (toMs !== undefined) filter.toMs = toMs;
  if (faulted !== undefined) filter.faulted = faulted === 'true';
  if (body !== undefined) filter.body = readBodyFilter(body);
  return filter;
}

function readBodyFilter(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fieldInvalid('body', 'The body field must be a JSON object, such as {"serial_number":"EXA0012345"}.');
  }
  return parsed as Record<string, unknown>;
}

function matches(record: RequestLogRecord, filter: RequestFilter): boolean {
  return (
    (filter.method === undefined || record.method === filter.method) &&
    (filter.path === undefined || record.path === filter.path) &&
    (filter.operation === undefined || record.operation === filter.operation) &&
    (filter.status === undefined || record.status === filter.status) &&
    (filter.fromMs === undefined || record.received_ms >= filter.fromMs) &&
    (filter.toMs === undefined || record.received_ms < filter.toMs) &&
    (filter.faulted === undefined || (record.fault !== null) === filter.faulted) &&
    (filter.body === undefined || holds(record.body, filter.body))
  );
}

/**
 * Whether `value` holds `part`: every field of an object `part` is in `value` and holds the
 * field's value in turn; any other value (arrays included) equals it as a whole.
 */
function holds(value: unknown, part: unknown): boolean {
  if (typeof part === 'object' && part !== null && !Array.isArray(part)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return Object.entries(part).every(
      ([name, member]) => Object.hasOwn(value, name) && holds((value as Record<string, unknown>)[name], member),
    );
  }
  return equal(value, part);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, at) => equal(item, b[at]));
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) ||
    Array.isArray(b)
  )
    return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (name) =>
        Object.hasOwn(b, name) && equal((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name]),
    )
  );
}
