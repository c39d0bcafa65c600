// The core and its options.
export { createSandboxCore } from './create-sandbox-core';
export type {
  CreateAccountInput,
  CreatedAccount,
  CreateTokenInput,
  SandboxCore,
  SandboxCoreInstance,
  SandboxCoreOptions,
  SandboxRequest,
  SandboxResponse,
  SandboxSnapshot,
} from './sandbox-core-types';

// The persistent state, as snapshots hold it.
export type { CoreSnapshot } from './state/core-snapshot';
export type { AccountRecord } from './accounts/account-record';
export type { AuditRecord } from './audit/audit-record';
export type { BookRecord } from './books/book-record';
export type { DeliveryRecord } from './outbox/delivery-record';
export type { TokenRecord } from './tokens/token-record';
export type { WebhookRecord } from './webhooks/webhook-record';

// Errors.
export { ApiError } from './errors/api-error';

// Webhook deliveries.
export { signDelivery } from './outbox/sign-delivery';
