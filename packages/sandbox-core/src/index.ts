// The core and its options.
export { createSandboxCore, DEFAULT_MAX_ACCOUNTS } from './core';
export type { SandboxCore, SandboxCoreOptions } from './core';
export type { CreatedAccount } from './control/control-calls';
export type { ActivityEvent } from './control/event-stream';
export type { SandboxRequest, SandboxResponse, TransportFault } from './support/request';

// Fault rules and the request log: the header that marks a faulted answer, and the log's limits.
export { FAULT_HEADER } from './routing/fault-injection';
export { MAX_FAULT_RULES } from './routing/fault-rules';
export { rateLimitProblem } from './routing/rate-limiter';
export { REQUEST_LOG_BYTES, REQUEST_LOG_ENTRIES } from './routing/request-log';

// The persistent state, as snapshots hold it.
export type {
  AccountRecord,
  AuditRecord,
  BookRecord,
  ChaosWindowRecord,
  CoreSnapshot,
  DeliveryRecord,
  SandboxSnapshot,
  Sequences,
  TokenRecord,
  WebhookChaosRecord,
  WebhookRecord,
} from './state/records';

// Changes to the persistent state, record by record; what a persister does with them is
// `@fflkit/sandbox-core/persistence`.
export type { SnapshotOptions } from './state/snapshot';
export type {
  CoreChange,
  CoreChangeSet,
  CoreCollection,
  CoreCollections,
  CoreRemoval,
  CoreUpsert,
} from './state/records';

// Errors.
export { ApiError, SnapshotError } from './support/errors';

// The body limit every transport applies before the core.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from './support/request';

// What a transport may keep of an answer's body by identity.
export { isPlainObject, keptByIdentity } from './support/kept-json';

// Webhook deliveries: signing, the signed request of an attempt, and the transport's types.
export { signDelivery } from './support/crypto';
export type { HmacSha256Hex, RandomBytes, Sha256Hex } from './support/crypto';
export { buildDeliveryRequest, describeDeliveryFailure, describeDeliveryTimeout } from './webhooks/attempts';
export type { DeliveryOutcome, DeliveryRequest, DeliverySender } from './webhooks/attempts';
export type { CoreDeliveries } from './webhooks/delivery-engine';
