// The client.
export { BoundBook } from './client';
export type { BoundBookOptions } from './client';
export type { RawClient } from './raw-client';
export type { AllowUndefined, RequestOptions } from './resources';

// Resources, as `bb.receipts`, `bb.books`, `bb.inventory`, `bb.search` and `bb.webhooks`. Exported as
// values: the bundled declarations export a class as a value even under `export type`.
export { Books, Inventory, Receipts, Search, Webhooks } from './resources';
export type { CreatedWebhook } from './resources';

// Pagination and incremental sync.
export { Paginator } from './pagination';
export type { ReceiptChange, SyncCheckpoint } from './changes-since';

// Errors: one class per status, built by one factory.
export {
  ApiError,
  AuthenticationError,
  BoundBookError,
  ConnectionError,
  createApiError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  QueueTimeoutError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from './errors';
export type { ApiErrorInit } from './errors';

// The contract's types that the methods take and return, from @boundbook/types.
export type {
  Book,
  Disposition,
  DispositionCreate,
  ErrorBody,
  InventoryQuery,
  Page,
  Receipt,
  ReceiptCreate,
  ReceiptListQuery,
  ReceiptUpdate,
  SearchQuery,
  ValidationErrorBody,
  WebhookEndpoint,
  WebhookEndpointCreate,
} from '@boundbook/types';

// Time and transport, for tests and custom runtimes.
export { systemClock } from './transport';
export type { Clock, FetchFunction, Wait } from './transport';
