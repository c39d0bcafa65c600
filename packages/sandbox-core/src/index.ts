// The core and its options.
export { createSandboxCore, DEFAULT_MAX_ACCOUNTS } from './core';
export type { SandboxCore, SandboxCoreOptions } from './core';
export type { CreatedAccount } from './control/control-calls';
export type { ActivityEvent } from './control/event-stream';
export type { SandboxRequest, SandboxResponse, TransportFault } from './support/request';

// Fault rules and the request log: the header that marks a faulted answer, and the log's limits.
export { FAULT_HEADER } from './routing/fault-injection';
export { MAX_FAULT_RULES } from './routing/fault-rules';
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

// Changes to the persistent state, record by record, for persisters.
export { applyChanges, ChangeReplay, createSnapshotStringifier, SNAPSHOT_FORMAT } from './state/snapshot';
export type { SnapshotOptions } from './state/snapshot';
export { createSnapshotReviver } from './state/snapshot-reviver';
export type { SnapshotReviver } from './state/snapshot-reviver';
export { CORE_COLLECTIONS } from './state/records';
export type {
  CoreChange,
  CoreChangeSet,
  CoreCollection,
  CoreCollections,
  CoreRemoval,
  CoreUpsert,
} from './state/records';

// Errors.
export { ApiError } from './support/errors';

// The body limit every transport applies before the core.
export { MAX_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from './support/request';

// Webhook deliveries: signing, the signed request of an attempt, and the transport's types.
export { signDelivery } from './support/crypto';
export type { HmacSha256Hex, RandomBytes, Sha256Hex } from './support/crypto';
export { buildDeliveryRequest, describeDeliveryFailure, describeDeliveryTimeout } from './webhooks/attempts';
export type { DeliveryOutcome, DeliveryRequest, DeliverySender } from './webhooks/attempts';
export type { CoreDeliveries } from './webhooks/delivery-engine';
