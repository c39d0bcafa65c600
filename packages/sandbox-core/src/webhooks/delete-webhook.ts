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
  const { deliveries } = account;
  deliveries.forEach((delivery, position) => {
    if (delivery.webhook_id === id && delivery.state === 'pending') {
      deliveries[position] = Object.freeze({ ...delivery, state: 'cancelled', next_attempt_at: null });
    }
  });
  state.version += 1;
  return { status: 204 };
};
