// The Node build (export condition `node`): HMAC with node:crypto's createHmac, comparison with
// timingSafeEqual. Same API and behaviour as the web build (src/web.ts).

// Signing and verification of X-SVC-Signature.
export { signPayload } from './node/sign-payload';
export { verifySignature } from './node/verify-signature';
export type { WebhookPayload } from './signature/read-payload';
export type { WebhookSecret } from './signature/read-secrets';

// Verified, typed events.
export { constructEvent } from './node/construct-event';
export type { ConstructEventOptions } from './events/construct-event-with';
export type { WebhookHeaders } from './events/read-header';
export type { UnknownWebhookEvent } from './events/unknown-webhook-event';
export type { WebhookEvent, WebhookEventName, WebhookEventOf } from '@boundbook/types';
export { WebhookVerificationError } from './errors/webhook-verification-error';
export type { WebhookVerificationReason } from './errors/webhook-verification-error';

// The receiver: routing by event, answers for the sender.
export { createWebhookHandler } from './node/create-webhook-handler';
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
