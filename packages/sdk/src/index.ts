// The client.
export { LogbookClient } from './client';
export type { LogbookClientOptions } from './client';
export type { RawClient } from './raw-client';
export type { AllowUndefined, RequestOptions } from './resources';

// Resources, as `logbook.receipts`, `logbook.books`, `logbook.inventory`, `logbook.search` and `logbook.webhooks`. Exported as
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
  LogbookError,
  ConnectionError,
  createApiError,
  InternalServerError,
  NotFoundError,
  OutcomeUnknownError,
  PermissionDeniedError,
  QueueTimeoutError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from './errors';
export type { ApiErrorInit, SentRequest } from './errors';

// The contract's types that the methods take and return, from @fflkit/types.
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
} from '@fflkit/types';

// Time and transport, for tests and custom runtimes.
export { systemClock } from './transport';
export type { Clock, FetchFunction, Wait } from './transport';
