// The web build (export conditions `browser`, `worker`, `edge-light`, `deno` and the default):
// HMAC with Web Crypto, comparison in constant time in JS, no node: import. Same API and behaviour
// as the Node build (src/index.ts).

// Signing and verification of X-SVC-Signature.
export { signPayload } from './web/sign-payload';
export { verifySignature } from './web/verify-signature';
export type { WebhookPayload } from './signature/read-payload';
export type { WebhookSecret } from './signature/read-secrets';

// Verified, typed events.
export { constructEvent } from './web/construct-event';
export type { ConstructEventOptions } from './events/construct-event-with';
export type { WebhookHeaders } from './events/read-header';
export type { UnknownWebhookEvent } from './events/unknown-webhook-event';
export type { WebhookEvent, WebhookEventName, WebhookEventOf } from '@boundbook/types';
export { WebhookVerificationError } from './errors/webhook-verification-error';
export type { WebhookVerificationReason } from './errors/webhook-verification-error';

// The receiver: routing by event, answers for the sender.
export { createWebhookHandler } from './web/create-webhook-handler';
export type { WebhookDelivery, WebhookHandler } from './handler/webhook-handler';
export type {
  WebhookContext,
  WebhookErrorInfo,
  WebhookEventHandlers,
  WebhookHandlerOptions,
} from './handler/webhook-handler-options';
export type { WebhookAnswer, WebhookOutcome } from './handler/webhook-answer';

// Deduplication on X-SVC-Delivery.
export { createMemoryDeliveryStore } from './dedup/create-memory-delivery-store';
export type { MemoryDeliveryStore, MemoryDeliveryStoreOptions } from './dedup/create-memory-delivery-store';
export { DEFAULT_DELIVERY_TTL_SECONDS } from './dedup/default-delivery-ttl';
export type { DeliveryClaim, DeliveryStore } from './dedup/delivery-store';

// Adapters for Node frameworks (Fetch runtimes use `handler.handle` directly).
export { toNodeListener } from './adapters/to-node-listener';
export { toExpressMiddleware } from './adapters/to-express-middleware';
export { toFastifyPlugin } from './adapters/to-fastify-plugin';
export type { FastifyInstanceLike, FastifyPluginOptions, FastifyReplyLike, FastifyRequestLike } from './adapters/to-fastify-plugin';
export type { NodeRequestLike } from './body/read-node-body';
export type { NodeResponseLike } from './adapters/write-node-answer';
