import type { WebhookHeaders } from '../events/read-header';
import type { WebhookPayload } from '../signature/read-payload';
import type { WebhookAnswer } from './webhook-answer';

/** A delivery as any framework hands it over: the raw body and the headers. */
export interface WebhookDelivery {
  readonly payload: WebhookPayload;
  readonly headers: WebhookHeaders;
}

/** The receiver made by `createWebhookHandler`. Its methods need no `this`: pass them around. */
export interface WebhookHandler {
  /**
   * Answers a Fetch `Request` (Next.js route handlers, Hono, Workers, Deno, Bun): 405 unless
   * POST, 413 past `maxBodyBytes`, otherwise as `receive`. Never rejects.
   */
  readonly handle: (request: Request) => Promise<Response>;
  /**
   * Answers a delivery given as raw body and headers, for any other framework (and the
   * adapters): verifies, deduplicates, routes. Never rejects.
   */
  readonly receive: (delivery: WebhookDelivery) => Promise<WebhookAnswer>;
  /** Largest body the adapters read, in bytes. */
  readonly maxBodyBytes: number;
}
