// The client.
export { BoundBook } from './client/bound-book';
export type { BoundBookOptions } from './client/bound-book-options';
export type { RequestOptions } from './client/request-options';
export type { RawClient } from './client/raw-client';

// Resources, as `bb.receipts`, `bb.books`, `bb.inventory`, `bb.search` and `bb.webhooks`. Exported as
// values: the bundled declarations export a class as a value even under `export type`.
export { Receipts } from './receipts/receipts';
export { Books } from './books/books';
export { Inventory } from './inventory/inventory';
export { Search } from './search/search';
export { Webhooks } from './webhooks/webhooks';
export type { CreatedWebhook } from './webhooks/webhooks';

// Pagination and incremental sync.
export { Paginator } from './pagination/paginator';
export type { ReceiptChange } from './receipts/changes-since';
export type { SyncCheckpoint } from './receipts/sync-checkpoint';

// Errors: one class per status, built by one factory.
export { BoundBookError } from './errors/bound-book-error';
export { ApiError } from './errors/api-error';
export type { ApiErrorInit } from './errors/api-error';
export { AuthenticationError } from './errors/authentication-error';
export { PermissionDeniedError } from './errors/permission-denied-error';
export { NotFoundError } from './errors/not-found-error';
export { ValidationError } from './errors/validation-error';
export { RateLimitError } from './errors/rate-limit-error';
export { InternalServerError } from './errors/internal-server-error';
export { ConnectionError } from './errors/connection-error';
export { TimeoutError } from './errors/timeout-error';
export { createApiError } from './errors/create-api-error';

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
export type { Clock } from './transport/clock';
export { systemClock } from './transport/clock';
export type { FetchFunction } from './transport/fetch-function';
