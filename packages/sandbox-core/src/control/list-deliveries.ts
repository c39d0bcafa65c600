import type { SandboxDelivery } from '@boundbook/types';
import { renderDelivery } from '../deliveries/render-delivery';
import type { AccountOperation } from '../routing/operation';

/**
 * `GET /_sandbox/deliveries`: every delivery of the account, newest first, each with its state,
 * its next attempt and every attempt made so far.
 *
 * @example
 * ```ts
 * listDeliveries(context).body; // { data: [{ id, webhook_id, event, state, next_attempt_at, created_at, attempts }] }
 * ```
 */
export const listDeliveries: AccountOperation = ({ account }) => {
  const data: SandboxDelivery[] = [];
  for (let position = account.deliveries.length - 1; position >= 0; position -= 1) {
    data.push(renderDelivery(account.deliveries[position]!));
  }
  return { status: 200, body: { data } };
};
