import type { WebhookEndpoint, WebhookEndpointCreate } from '@boundbook/types';
import { dataOrThrow } from '../client/data-or-throw';
import type { RawClient } from '../client/raw-client';
import { requestInit, type RequestOptions } from '../client/request-options';

/**
 * A webhook endpoint just created, with its signing secret: the only time the secret is shown.
 *
 * @example
 * ```ts
 * const { endpoint, secret }: CreatedWebhook = await bb.webhooks.create({ url, events: ['*'] });
 * ```
 */
export interface CreatedWebhook {
  endpoint: WebhookEndpoint;
  /** `whsec_...`: keep it to verify `X-SVC-Signature`; it is never shown again. */
  secret: string;
}

/**
 * Webhook endpoints: `bb.webhooks`.
 *
 * @example
 * ```ts
 * const { endpoint, secret } = await bb.webhooks.create({ url: 'https://pos.example.com/hooks/boundbook', events: ['receipt.created'] });
 * ```
 */
export class Webhooks {
  readonly #raw: RawClient;

  constructor(raw: RawClient) {
    this.#raw = raw;
  }

  /**
   * The account's endpoints (without secrets).
   *
   * @example
   * ```ts
   * const disabled = (await bb.webhooks.list()).filter((endpoint) => !endpoint.enabled);
   * ```
   */
  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return dataOrThrow(await this.#raw.GET('/webhooks', requestInit(options))).data;
  }

  /**
   * Adds an endpoint for the named events (`['*']` for all) and returns it with its secret.
   *
   * @example
   * ```ts
   * const { endpoint, secret } = await bb.webhooks.create({ url: 'https://pos.example.com/hooks', events: ['*'] });
   * await vault.put(`boundbook-webhook-${endpoint.id}`, secret);
   * ```
   */
  async create(body: WebhookEndpointCreate, options?: RequestOptions): Promise<CreatedWebhook> {
    const created = dataOrThrow(await this.#raw.POST('/webhooks', { body, ...requestInit(options) }));
    return { endpoint: created.data, secret: created.secret };
  }

  /**
   * Removes an endpoint: the service sends it nothing more.
   *
   * @example
   * ```ts
   * await bb.webhooks.delete(7);
   * ```
   */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    dataOrThrow(await this.#raw.DELETE('/webhooks/{id}', { params: { path: { id } }, ...requestInit(options) }));
  }
}
