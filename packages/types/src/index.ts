// Generated from openapi/openapi.yaml: every path, operation, schema and webhook of the service.
export type { paths, operations, components, webhooks } from './generated/openapi';

// Generated from openapi/sandbox.yaml: the local sandbox's control API.
export type {
  paths as SandboxPaths,
  operations as SandboxOperations,
  components as SandboxComponents,
} from './generated/sandbox';

// Named resources, bodies and events.
export type {
  AccountType,
  AuditEntry,
  Book,
  DeletedReceipt,
  DisposedReceipt,
  Disposition,
  DispositionCreate,
  E4473,
  ErrorBody,
  InventoryQuery,
  NicsResult,
  Page,
  PaginationLinks,
  PaginationMeta,
  Permission,
  Receipt,
  ReceiptCreate,
  ReceiptDocument,
  ReceiptListQuery,
  ReceiptStatus,
  ReceiptUpdate,
  SandboxAccount,
  SandboxClock,
  SandboxDelivery,
  SandboxDeliveryAttempt,
  SandboxRequestLogEntry,
  SandboxToken,
  SearchField,
  SearchQuery,
  ValidationErrorBody,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointCreated,
  WebhookEvent,
  WebhookEventName,
  WebhookEventOf,
  WebhookSubscription,
} from './schemas';

// Runtime constants, checked against the contract by the tests.
export {
  ACCOUNT_TYPES,
  DEFAULT_PER_PAGE,
  ELIGIBLE_ACCOUNT_TYPES,
  HEADERS,
  MAX_PER_PAGE,
  NICS_RESULTS,
  PERMISSIONS,
  RATE_LIMIT_PER_MINUTE,
  RECEIPT_STATUSES,
  SEARCH_FIELDS,
  SECRET_PREFIX,
  SIGNATURE_PREFIX,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
  WEBHOOK_USER_AGENT,
  WILDCARD_SUBSCRIPTION,
} from './constants';
