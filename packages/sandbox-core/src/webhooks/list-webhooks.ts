import type { AccountOperation } from '../routing/operation';
import { renderWebhook } from './render-webhook';

/**
 * `GET /webhooks`: the account's endpoints by id ascending, unpaginated, without secrets.
 *
 * @example
 * ```ts
 * listWebhooks(context).body; // { data: [{ id, url, events, enabled, created_at, updated_at }] }
 * ```
 */
export const listWebhooks: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: Array.from(account.webhooks.values(), renderWebhook) },
});
