// The core and its options.
export { createSandboxCore } from './create-sandbox-core';
export type {
  CoreDeliveries,
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
export type { Sequences } from './state/core-state';
export type { AccountRecord } from './accounts/account-record';
export type { AuditRecord } from './audit/audit-record';
export type { BookRecord } from './books/book-record';
export type { DeliveryRecord } from './outbox/delivery-record';
export type { TokenRecord } from './tokens/token-record';
export type { WebhookRecord } from './webhooks/webhook-record';

// Changes to the persistent state, record by record, for persisters.
export { applyChanges } from './state/apply-changes';
export { ChangeReplay } from './state/change-replay';
export { CORE_COLLECTIONS } from './state/core-change';
export type {
  CoreChange,
  CoreChangeSet,
  CoreCollection,
  CoreCollections,
  CoreRemoval,
  CoreUpsert,
} from './state/core-change';

// Errors.
export { ApiError } from './errors/api-error';

// The body limit every transport applies before the core.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from './http/body-limit';

// Webhook deliveries: signing, the signed request of an attempt, and the transport's types.
export { signDelivery } from './outbox/sign-delivery';
export { buildDeliveryRequest } from './deliveries/build-delivery-request';
export type { DeliveryOutcome, DeliveryRequest, DeliverySender } from './deliveries/delivery-sender';
export { describeDeliveryFailure, describeDeliveryTimeout } from './deliveries/describe-delivery-failure';
