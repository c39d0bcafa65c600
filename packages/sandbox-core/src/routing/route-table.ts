import { advanceClock } from '../control/advance-clock';
import { attachDocument } from '../control/attach-document';
import { createAccount } from '../control/create-account';
import { createBook } from '../control/create-book';
import { createToken } from '../control/create-token';
import { enableWebhook } from '../control/enable-webhook';
import { getClock } from '../control/get-clock';
import { getReceiptAudit } from '../control/get-receipt-audit';
import { listDeliveries } from '../control/list-deliveries';
import { listRequests } from '../control/list-requests';
import { pingWebhook } from '../control/ping-webhook';
import { putE4473 } from '../control/put-e4473';
import { redeliverDelivery } from '../control/redeliver-delivery';
import { resetAccount } from '../control/reset-account';
import { revokeToken } from '../control/revoke-token';
import { listBooks } from '../books/list-books';
import { createReceipt } from '../receipts/create-receipt';
import { deleteReceipt } from '../receipts/delete-receipt';
import { disposeReceipt } from '../receipts/dispose-receipt';
import { getReceipt } from '../receipts/get-receipt';
import { listInventory } from '../receipts/list-inventory';
import { listReceipts } from '../receipts/list-receipts';
import { searchReceipts } from '../receipts/search-receipts';
import { updateReceipt } from '../receipts/update-receipt';
import { createWebhook } from '../webhooks/create-webhook';
import { deleteWebhook } from '../webhooks/delete-webhook';
import { listWebhooks } from '../webhooks/list-webhooks';
import type { AccountOperation, PublicOperation } from './operation';

/** The base path of the service API. */
export const API_PREFIX = '/rest/v1';
/** The base path of the sandbox control API. */
const CONTROL_PREFIX = '/_sandbox';

/** A route: its operation, and who may call it. */
export type Route = (
  | { scope: 'api' | 'control'; operation: AccountOperation }
  | { scope: 'public'; operation: PublicOperation }
) & {
  method: string;
  path: string;
  /**
   * A read of the account whose answer depends only on the state, the path, the query and the
   * origin: kept in the runtime's `AnswerCache` while the state's version is unchanged.
   */
  cached?: boolean;
  /** `path` split at `/`, for matching. */
  segments: readonly string[];
};

type RouteDefinition = Omit<Route, 'segments'>;

/**
 * Every route the core answers; `:id` stands for a numeric id, `:uuid` for a delivery's id. Service API routes are
 * authenticated, rate-limited and permission-checked; control routes only authenticated.
 *
 * @example
 * ```ts
 * ROUTES.filter((route) => route.scope === 'api').length; // 12
 * ```
 */
export const ROUTES: readonly Route[] = (
  [
  { method: 'GET', path: `${API_PREFIX}/receipts`, scope: 'api', operation: listReceipts, cached: true },
  { method: 'POST', path: `${API_PREFIX}/receipts`, scope: 'api', operation: createReceipt },
  { method: 'GET', path: `${API_PREFIX}/receipts/:id`, scope: 'api', operation: getReceipt },
  { method: 'PUT', path: `${API_PREFIX}/receipts/:id`, scope: 'api', operation: updateReceipt },
  { method: 'DELETE', path: `${API_PREFIX}/receipts/:id`, scope: 'api', operation: deleteReceipt },
  { method: 'POST', path: `${API_PREFIX}/receipts/:id/dispose`, scope: 'api', operation: disposeReceipt },
  { method: 'GET', path: `${API_PREFIX}/books`, scope: 'api', operation: listBooks, cached: true },
  { method: 'GET', path: `${API_PREFIX}/inventory`, scope: 'api', operation: listInventory },
  { method: 'GET', path: `${API_PREFIX}/search`, scope: 'api', operation: searchReceipts },
  { method: 'GET', path: `${API_PREFIX}/webhooks`, scope: 'api', operation: listWebhooks, cached: true },
  { method: 'POST', path: `${API_PREFIX}/webhooks`, scope: 'api', operation: createWebhook },
  { method: 'DELETE', path: `${API_PREFIX}/webhooks/:id`, scope: 'api', operation: deleteWebhook },
  { method: 'POST', path: `${CONTROL_PREFIX}/accounts`, scope: 'public', operation: createAccount },
  { method: 'POST', path: `${CONTROL_PREFIX}/tokens`, scope: 'control', operation: createToken },
  { method: 'DELETE', path: `${CONTROL_PREFIX}/tokens/:id`, scope: 'control', operation: revokeToken },
  { method: 'POST', path: `${CONTROL_PREFIX}/books`, scope: 'control', operation: createBook },
  { method: 'GET', path: `${CONTROL_PREFIX}/clock`, scope: 'control', operation: getClock },
  { method: 'POST', path: `${CONTROL_PREFIX}/clock/advance`, scope: 'control', operation: advanceClock },
  { method: 'GET', path: `${CONTROL_PREFIX}/deliveries`, scope: 'control', operation: listDeliveries },
  { method: 'POST', path: `${CONTROL_PREFIX}/deliveries/:uuid/redeliver`, scope: 'control', operation: redeliverDelivery },
  { method: 'POST', path: `${CONTROL_PREFIX}/webhooks/:id/ping`, scope: 'control', operation: pingWebhook },
  { method: 'POST', path: `${CONTROL_PREFIX}/webhooks/:id/enable`, scope: 'control', operation: enableWebhook },
  { method: 'GET', path: `${CONTROL_PREFIX}/receipts/:id/audit`, scope: 'control', operation: getReceiptAudit },
  { method: 'POST', path: `${CONTROL_PREFIX}/receipts/:id/documents`, scope: 'control', operation: attachDocument },
  { method: 'PUT', path: `${CONTROL_PREFIX}/receipts/:id/e4473`, scope: 'control', operation: putE4473 },
  { method: 'GET', path: `${CONTROL_PREFIX}/requests`, scope: 'control', operation: listRequests },
  { method: 'POST', path: `${CONTROL_PREFIX}/reset`, scope: 'control', operation: resetAccount },
  ] satisfies RouteDefinition[]
).map((route): Route => ({ ...route, segments: route.path.split('/') }));
