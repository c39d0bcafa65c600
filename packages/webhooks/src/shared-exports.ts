// The exports both builds share, re-exported whole by src/index.ts (Node) and src/web.ts (Web
// Crypto). The four functions that sign or verify (`signPayload`, `verifySignature`,
// `constructEvent`, `createWebhookHandler`) are each build's own and live in its entry file.

// Signing and verification of X-SVC-Signature.
export type { WebhookPayload, WebhookSecret } from './signature';

// Verified, typed events.
export type { ConstructEventOptions, UnknownWebhookEvent, WebhookHeaders } from './events';
export type { WebhookEvent, WebhookEventName, WebhookEventOf } from '@fflkit/types';
export { WebhookVerificationError } from './errors';
export type { WebhookVerificationReason } from './errors';

// The receiver: routing by event, answers for the sender.
export type {
  WebhookContext,
  WebhookDelivery,
  WebhookErrorInfo,
  WebhookEventHandlers,
  WebhookHandler,
  WebhookHandlerOptions,
} from './handler';
export type { WebhookAnswer, WebhookOutcome } from './answers';

// Deduplication of deliveries, on the digest of their body by default.
export { DEFAULT_DELIVERY_TTL_SECONDS, createMemoryDeliveryStore } from './dedup';
export type {
  DeduplicateBy,
  DeliveryClaim,
  DeliveryStore,
  MemoryDeliveryStore,
  MemoryDeliveryStoreOptions,
} from './dedup';

// Adapters for Node frameworks (Fetch runtimes use `handler.handle` directly).
export { toExpressMiddleware, toFastifyPlugin, toNodeListener } from './adapters';
export type {
  FastifyInstanceLike,
  FastifyPluginOptions,
  FastifyReplyLike,
  FastifyRequestLike,
  NodeResponseLike,
} from './adapters';
export type { NodeRequestLike } from './body';
