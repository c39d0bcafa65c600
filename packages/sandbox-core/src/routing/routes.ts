import type { ServiceOperationId } from '@fflkit/types';
import { advanceClock, getClock } from '../accounts/clock';
import { createAccount, deleteAccount, resetAccount } from '../accounts/accounts';
import { createBook, listBooks } from '../accounts/books';
import { createToken, listTokens, revokeToken } from '../accounts/tokens';
import { getReceiptAudit } from '../receipts/audit';
import {
  browseReceipts,
  exportReceipts,
  getReceipt,
  listInventory,
  listReceipts,
  searchReceipts,
} from '../receipts/receipt-reads';
import {
  attachDocument,
  createReceipt,
  deleteReceipt,
  disposeReceipt,
  putE4473,
  updateReceipt,
} from '../receipts/receipt-writes';
import { getFixtures, postFixtures } from '../fixtures/fixtures';
import type { AccountOperation, PublicOperation } from '../state/operation';
import { getDelivery, listDeliveries, redeliverDelivery } from '../webhooks/deliveries';
import {
  createWebhook,
  deleteWebhook,
  deleteWebhookChaos,
  enableWebhook,
  listWebhooks,
  listWebhookStates,
  pingWebhook,
  putWebhookChaos,
} from '../webhooks/endpoints';
import { clearFaults, createFault, deleteFault, listFaults } from './fault-rules';
import { listRequests } from './request-query';

/** The base path of the service API. */
const API_PREFIX = '/rest/v1';
/** The base path of the sandbox control API. */
const CONTROL_PREFIX = '/_sandbox';

/**
 * A route: its operation, and who may call it. Service API routes are authenticated,
 * rate-limited and permission-checked; control routes only authenticated; public ones neither.
 */
export type Route = (
  | { scope: 'api'; operationId: ServiceOperationId; operation: AccountOperation }
  | { scope: 'control'; operation: AccountOperation }
  | { scope: 'public'; operation: PublicOperation }
) & {
  method: string;
  path: string;
  /**
   * A read of the account whose answer depends only on the state, the path, the query and the
   * origin: kept in the `AnswerCache` while the state is unchanged.
   */
  cached?: boolean;
  /** `path` split at `/`, for matching. */
  segments: readonly string[];
};

// Distributed over the kinds of route, so that each keeps its own fields.
type RouteDefinition = WithoutSegments<Route>;
type WithoutSegments<R> = R extends unknown ? Omit<R, 'segments'> : never;

/** Every route the core answers; `:id` stands for a numeric id, `:key` for a delivery's id. */
export const ROUTES: readonly Route[] = (
  [
    {
      method: 'GET',
      path: `${API_PREFIX}/receipts`,
      scope: 'api',
      operationId: 'listReceipts',
      operation: listReceipts,
      cached: true,
    },
    {
      method: 'POST',
      path: `${API_PREFIX}/receipts`,
      scope: 'api',
      operationId: 'createReceipt',
      operation: createReceipt,
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/receipts/:id`,
      scope: 'api',
      operationId: 'getReceipt',
      operation: getReceipt,
    },
    {
      method: 'PUT',
      path: `${API_PREFIX}/receipts/:id`,
      scope: 'api',
      operationId: 'updateReceipt',
      operation: updateReceipt,
    },
    {
      method: 'DELETE',
      path: `${API_PREFIX}/receipts/:id`,
      scope: 'api',
      operationId: 'deleteReceipt',
      operation: deleteReceipt,
    },
    {
      method: 'POST',
      path: `${API_PREFIX}/receipts/:id/dispose`,
      scope: 'api',
      operationId: 'disposeReceipt',
      operation: disposeReceipt,
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/books`,
      scope: 'api',
      operationId: 'listBooks',
      operation: listBooks,
      cached: true,
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/inventory`,
      scope: 'api',
      operationId: 'listInventory',
      operation: listInventory,
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/search`,
      scope: 'api',
      operationId: 'searchReceipts',
      operation: searchReceipts,
    },
    {
      method: 'GET',
      path: `${API_PREFIX}/webhooks`,
      scope: 'api',
      operationId: 'listWebhooks',
      operation: listWebhooks,
      cached: true,
    },
    {
      method: 'POST',
      path: `${API_PREFIX}/webhooks`,
      scope: 'api',
      operationId: 'createWebhook',
      operation: createWebhook,
    },
    {
      method: 'DELETE',
      path: `${API_PREFIX}/webhooks/:id`,
      scope: 'api',
      operationId: 'deleteWebhook',
      operation: deleteWebhook,
    },
    { method: 'POST', path: `${CONTROL_PREFIX}/accounts`, scope: 'public', operation: createAccount },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/account`, scope: 'control', operation: deleteAccount },
    { method: 'POST', path: `${CONTROL_PREFIX}/tokens`, scope: 'control', operation: createToken },
    { method: 'GET', path: `${CONTROL_PREFIX}/tokens`, scope: 'control', operation: listTokens },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/tokens/:id`, scope: 'control', operation: revokeToken },
    { method: 'GET', path: `${CONTROL_PREFIX}/books`, scope: 'control', operation: listBooks },
    { method: 'POST', path: `${CONTROL_PREFIX}/books`, scope: 'control', operation: createBook },
    { method: 'GET', path: `${CONTROL_PREFIX}/clock`, scope: 'control', operation: getClock },
    { method: 'POST', path: `${CONTROL_PREFIX}/clock/advance`, scope: 'control', operation: advanceClock },
    { method: 'GET', path: `${CONTROL_PREFIX}/deliveries`, scope: 'control', operation: listDeliveries },
    { method: 'GET', path: `${CONTROL_PREFIX}/deliveries/:key`, scope: 'control', operation: getDelivery },
    {
      method: 'POST',
      path: `${CONTROL_PREFIX}/deliveries/:key/redeliver`,
      scope: 'control',
      operation: redeliverDelivery,
    },
    { method: 'GET', path: `${CONTROL_PREFIX}/webhooks`, scope: 'control', operation: listWebhookStates },
    // The dashboard's Add endpoint and Delete: the operations of the API, as control calls.
    { method: 'POST', path: `${CONTROL_PREFIX}/webhooks`, scope: 'control', operation: createWebhook },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/webhooks/:id`, scope: 'control', operation: deleteWebhook },
    { method: 'POST', path: `${CONTROL_PREFIX}/webhooks/:id/ping`, scope: 'control', operation: pingWebhook },
    { method: 'POST', path: `${CONTROL_PREFIX}/webhooks/:id/enable`, scope: 'control', operation: enableWebhook },
    { method: 'PUT', path: `${CONTROL_PREFIX}/webhooks/:id/chaos`, scope: 'control', operation: putWebhookChaos },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/webhooks/:id/chaos`, scope: 'control', operation: deleteWebhookChaos },
    { method: 'GET', path: `${CONTROL_PREFIX}/receipts`, scope: 'control', operation: browseReceipts },
    { method: 'GET', path: `${CONTROL_PREFIX}/receipts/export`, scope: 'control', operation: exportReceipts },
    { method: 'GET', path: `${CONTROL_PREFIX}/receipts/:id`, scope: 'control', operation: getReceipt },
    { method: 'GET', path: `${CONTROL_PREFIX}/receipts/:id/audit`, scope: 'control', operation: getReceiptAudit },
    { method: 'POST', path: `${CONTROL_PREFIX}/receipts/:id/documents`, scope: 'control', operation: attachDocument },
    { method: 'PUT', path: `${CONTROL_PREFIX}/receipts/:id/e4473`, scope: 'control', operation: putE4473 },
    { method: 'GET', path: `${CONTROL_PREFIX}/requests`, scope: 'control', operation: listRequests },
    { method: 'GET', path: `${CONTROL_PREFIX}/faults`, scope: 'control', operation: listFaults },
    { method: 'POST', path: `${CONTROL_PREFIX}/faults`, scope: 'control', operation: createFault },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/faults`, scope: 'control', operation: clearFaults },
    { method: 'DELETE', path: `${CONTROL_PREFIX}/faults/:id`, scope: 'control', operation: deleteFault },
    { method: 'POST', path: `${CONTROL_PREFIX}/reset`, scope: 'control', operation: resetAccount },
    { method: 'POST', path: `${CONTROL_PREFIX}/fixtures`, scope: 'public', operation: postFixtures },
    { method: 'GET', path: `${CONTROL_PREFIX}/fixtures`, scope: 'control', operation: getFixtures },
  ] satisfies RouteDefinition[]
).map((route): Route => ({ ...route, segments: route.path.split('/') }));

/** An operation of the service API, as `openapi.yaml` writes it. */
interface ServiceOperation {
  readonly operationId: ServiceOperationId;
  readonly method: string;
  /** The contract's path template, without `/rest/v1`: `/receipts/{id}/dispose`. */
  readonly path: string;
}

/** Every operation of the service API, in the order of the routes. */
export const SERVICE_OPERATIONS: readonly ServiceOperation[] = ROUTES.flatMap((route) =>
  route.scope === 'api'
    ? [
        {
          operationId: route.operationId,
          method: route.method,
          path: route.path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}'),
        },
      ]
    : [],
);

const SERVICE_OPERATION_IDS: ReadonlySet<string> = new Set(SERVICE_OPERATIONS.map((known) => known.operationId));

/** Whether `id` is the operationId of an operation of the service API (not of a control call). */
export function isServiceOperation(id: string): id is ServiceOperationId {
  return SERVICE_OPERATION_IDS.has(id);
}

/** Whether a path is under the service API's base path `/rest/v1`. */
export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * A route that answers a request, with its numeric `:id` (`0` when it has none) and the text of
 * its `:id` or `:key` segment (`''` when it has none).
 */
export interface RouteMatch {
  route: Route;
  id: number;
  key: string;
}

const ID_SEGMENT = /^\d+$/;

/**
 * The matches of the routes without an `:id` or `:key` segment, by method and path, each made
 * once: most requests (the lists, making a receipt) find theirs in one lookup, not a walk of
 * every route (the reads benchmark). The first route of a method and path wins, as in the walk.
 */
const FIXED_ROUTES: ReadonlyMap<string, RouteMatch> = new Map(
  [...ROUTES]
    .reverse()
    .filter((route) => !route.segments.some((segment) => segment.startsWith(':')))
    .map((route) => [`${route.method} ${route.path}`, Object.freeze({ route, id: 0, key: '' })]),
);

/**
 * Finds the route of a method and path; `undefined` when none answers them. An `:id` segment
 * matches digits only, so `/receipts/abc` is an unknown route; a `:key` segment matches any
 * text, which its operation checks (a delivery's id).
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const fixed = FIXED_ROUTES.get(`${method} ${path}`);
  if (fixed !== undefined) return fixed;
  const segments = path.split('/');
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = matchPath(route.segments, segments);
    if (match !== undefined) return { route, ...match };
  }
  return undefined;
}

function matchPath(pattern: readonly string[], segments: readonly string[]): { id: number; key: string } | undefined {
  if (pattern.length !== segments.length) return undefined;
  let id = 0;
  let key = '';
  for (let position = 0; position < pattern.length; position += 1) {
    const expected = pattern[position];
    const actual = segments[position] ?? '';
    if (expected === ':id') {
      if (!ID_SEGMENT.test(actual)) return undefined;
      id = Number(actual);
      key = actual;
    } else if (expected === ':key') {
      if (actual === '') return undefined;
      key = actual;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return { id, key };
}
