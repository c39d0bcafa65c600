import { cancelDeliveries } from '../deliveries/cancel-deliveries';
import { recordNotFound } from '../errors/not-found';
import type { AccountOperation } from '../routing/operation';

/**
 * `DELETE /webhooks/{id}`: deletes an endpoint and cancels its pending deliveries.
 *
 * @example
 * ```ts
 * deleteWebhook(context).status; // 204
 * ```
 */
export const deleteWebhook: AccountOperation = ({ state, account, id }) => {
  if (!account.webhooks.delete(id)) throw recordNotFound();
  state.feed.remove('webhooks', id);
  cancelDeliveries(state, account, id);
  state.version += 1;
  return { status: 204 };
};
