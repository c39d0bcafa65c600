import type { WebhookEndpoint } from '@boundbook/types';

/** A webhook endpoint as stored: the contract's `WebhookEndpoint` plus its owner and secret. */
export interface WebhookRecord extends Readonly<WebhookEndpoint> {
  readonly account_id: number;
  /** The signing secret, `whsec_...`, shown once when the endpoint is made. */
  readonly secret: string;
  /**
   * Failed attempts to the endpoint since its last success (or since it was made or re-enabled);
   * the endpoint is disabled when it reaches `WEBHOOK_DISABLE_AFTER_FAILURES`.
   */
  readonly consecutive_failures: number;
}
