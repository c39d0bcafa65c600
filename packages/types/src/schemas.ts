import type { components, operations } from './generated/openapi';
import type { components as sandboxComponents, operations as sandboxOperations } from './generated/sandbox';

/** A receipt (acquisition record) with its disposition, documents and E4473 data. */
export type Receipt = components['schemas']['Receipt'];
/** Body of `POST /receipts`. */
export type ReceiptCreate = components['schemas']['ReceiptCreate'];
/** Body of `PUT /receipts/{id}`: every field optional. */
export type ReceiptUpdate = components['schemas']['ReceiptUpdate'];
/** A receipt as carried by the `receipt.deleted` event: the receipt plus `deleted_at`. */
export type DeletedReceipt = components['schemas']['DeletedReceipt'];
/** A receipt as carried by the `receipt.disposed` event: status `disposed`, with its disposition. */
export type DisposedReceipt = components['schemas']['DisposedReceipt'];
/** The disposition recorded on a receipt. */
export type Disposition = components['schemas']['Disposition'];
/** Body of `POST /receipts/{id}/dispose`. */
export type DispositionCreate = components['schemas']['DispositionCreate'];
/** A document attached to a receipt (read-only in the API). */
export type ReceiptDocument = components['schemas']['Document'];
/** The E4473 data of a receipt (read-only in the API). */
export type E4473 = components['schemas']['E4473'];
/** A logbook of the account with its counts. */
export type Book = components['schemas']['Book'];
/** A webhook endpoint as the API returns it (the secret is never part of it). */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
/** Body of `POST /webhooks`. */
export type WebhookEndpointCreate = components['schemas']['WebhookEndpointCreate'];
/** Answer of `POST /webhooks`: the endpoint and its signing secret, shown only here. */
export type WebhookEndpointCreated = components['schemas']['WebhookEndpointCreated'];
/** A name an endpoint can subscribe to: an event name or `*`. */
export type WebhookSubscription = components['schemas']['WebhookSubscription'];
/** Name of an event the service fires. */
export type WebhookEventName = components['schemas']['WebhookEventName'];
/**
 * The body of any webhook delivery: a union discriminated on `event`.
 *
 * @example
 * ```ts
 * import type { WebhookEvent } from '@fflkit/types';
 *
 * function describe(event: WebhookEvent): string {
 *   if (event.event === 'ping') return event.data.message;
 *   return `${event.event} ${event.data.serial_number}`;
 * }
 * ```
 */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/**
 * The webhook event of one name.
 *
 * @example
 * ```ts
 * import type { WebhookEventOf } from '@fflkit/types';
 *
 * const onDisposed = (event: WebhookEventOf<'receipt.disposed'>) => event.data.disposition.disposed_to; // a Disposition, never null here
 * ```
 */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name }>;
/** Links of a page in the pagination envelope. */
export type PaginationLinks = components['schemas']['PaginationLinks'];
/** Meta of a page in the pagination envelope. */
export type PaginationMeta = components['schemas']['PaginationMeta'];
/**
 * One page of a paginated list: `{ data, links, meta }`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 * import type { Page, Receipt } from '@fflkit/types';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const page: Page<Receipt> = await logbook.receipts.list({ per_page: 200 });
 * page.meta.total; // every receipt of the list, on all pages
 * ```
 */
export interface Page<T> {
  data: T[];
  links: PaginationLinks;
  meta: PaginationMeta;
}
/** Body of every error answer. */
export type ErrorBody = components['schemas']['ErrorBody'];
/** Body of a 422 answer: `errors` maps each request field to its messages. */
export type ValidationErrorBody = components['schemas']['ValidationErrorBody'];
/** A permission an API key can hold. */
export type Permission = components['schemas']['Permission'];
/** A type of account; only dealer, manufacturer and importer may use the API. */
export type AccountType = components['schemas']['AccountType'];
/** Status of a receipt. */
export type ReceiptStatus = components['schemas']['ReceiptStatus'];
/** A field `GET /search` can search. */
export type SearchField = components['schemas']['SearchField'];
/** Result of a NICS background check. */
export type NicsResult = components['schemas']['NicsResult'];
/** Query parameters of `GET /receipts`. */
export type ReceiptListQuery = NonNullable<operations['listReceipts']['parameters']['query']>;
/** Query parameters of `GET /inventory`. */
export type InventoryQuery = NonNullable<operations['listInventory']['parameters']['query']>;
/** Query parameters of `GET /search`. */
export type SearchQuery = operations['searchReceipts']['parameters']['query'];

/** A sandbox account (control API). */
export type SandboxAccount = sandboxComponents['schemas']['Account'];
/** Body of `POST /_sandbox/accounts`: every field optional (a dealer with the book `Main`). */
export type SandboxAccountCreate = sandboxComponents['schemas']['AccountCreate'];
/** Body of `POST /_sandbox/tokens`. */
export type SandboxTokenCreate = sandboxComponents['schemas']['TokenCreate'];
/** Body of `POST /_sandbox/receipts/{id}/documents`. */
export type SandboxDocumentCreate = sandboxComponents['schemas']['DocumentCreate'];
/** Body of `PUT /_sandbox/receipts/{id}/e4473`. */
export type SandboxE4473Put = sandboxComponents['schemas']['E4473Put'];
/** A fixtures file: accounts with fixed tokens, books, endpoints with fixed secrets, receipts. */
export type SandboxFixtures = sandboxComponents['schemas']['Fixtures'];
/** What `POST /_sandbox/fixtures` added, account by account. */
export type SandboxFixturesLoaded = sandboxComponents['schemas']['FixturesLoaded']['data'];
/** What `GET /_sandbox/health` answers once the sandbox serves: `ok` and the sandbox's version. */
export type SandboxHealth = sandboxComponents['schemas']['Health'];
/** A sandbox API token record; the token string itself is shown only when it is made. */
export type SandboxToken = sandboxComponents['schemas']['Token'];
/** A webhook endpoint as the sandbox's console shows it: the endpoint, its consecutive failed attempts and its delivery chaos. */
export type SandboxWebhookEndpointState = sandboxComponents['schemas']['WebhookEndpointState'];
/** An endpoint's delivery chaos as the sandbox shows it: every setting, off ones included. */
export type SandboxWebhookChaos = sandboxComponents['schemas']['WebhookChaos'];
/** Body of `PUT /_sandbox/webhooks/{id}/chaos`: every field optional, off when left out. */
export type SandboxWebhookChaosPut = sandboxComponents['schemas']['WebhookChaosPut'];
/** A page of `GET /_sandbox/receipts`: the pagination envelope, with up to 1,000 receipts a page. */
export type SandboxReceiptPage = sandboxComponents['schemas']['ReceiptBrowsePage'];
/** Query parameters of `GET /_sandbox/receipts`: the filters of `GET /receipts` and `GET /search`, and pages of up to 1,000. */
export type SandboxReceiptBrowseQuery = NonNullable<sandboxOperations['browseReceipts']['parameters']['query']>;
/** Query parameters of `GET /_sandbox/receipts/export`: the filters of `GET /_sandbox/receipts`, without pages. */
export type SandboxReceiptExportQuery = NonNullable<sandboxOperations['exportReceipts']['parameters']['query']>;
/** The sandbox account's clock. */
export type SandboxClock = sandboxComponents['schemas']['Clock'];
/** A webhook delivery and its attempts, as the sandbox records them. */
export type SandboxDelivery = sandboxComponents['schemas']['Delivery'];
/** One attempt of a webhook delivery. */
export type SandboxDeliveryAttempt = sandboxComponents['schemas']['DeliveryAttempt'];
/** A webhook delivery with the signed request its attempts send (`null` once its endpoint is deleted). */
export type SandboxDeliveryDetail = sandboxComponents['schemas']['DeliveryDetail'];
/** The signed HTTP request of each attempt of a delivery: URL, headers and exact body. */
export type SandboxDeliveryRequest = sandboxComponents['schemas']['DeliveryRequest'];
/** Query parameters of `GET /_sandbox/deliveries`: the endpoint and the state to keep. */
export type SandboxDeliveryListQuery = NonNullable<sandboxOperations['listDeliveries']['parameters']['query']>;
/** One entry of a receipt's audit trail. */
export type AuditEntry = sandboxComponents['schemas']['AuditEntry'];
/** One request the sandbox answered, with its body and the fault rule that acted on it; credentials redacted. */
export type SandboxRequestLogEntry = sandboxComponents['schemas']['RequestLogEntry'];
/** What a fault rule did to a logged request. */
export type SandboxRequestLogFault = sandboxComponents['schemas']['RequestLogFault'];
/** The answer of `GET /_sandbox/requests`: the entries, and whether the log dropped some the filters could have matched. */
export type SandboxRequestLog = sandboxComponents['schemas']['RequestLogList'];
/** Query parameters of `GET /_sandbox/requests`: its filters. */
export type SandboxRequestLogQuery = NonNullable<sandboxOperations['listRequests']['parameters']['query']>;
/** A fault rule of a sandbox account, with how often it fired. */
export type SandboxFault = sandboxComponents['schemas']['Fault'];
/** Body of `POST /_sandbox/faults`: a fault rule to add. */
export type SandboxFaultCreate = sandboxComponents['schemas']['FaultCreate'];
/** What a fault rule does: `status`, `drop` or `delay`. */
export type SandboxFaultAction = sandboxComponents['schemas']['FaultAction'];

/** The operationId of an operation of the service API, such as `createReceipt` (webhook events left out). */
export type ServiceOperationId = Exclude<keyof operations, `receipt${string}Webhook` | 'pingEventWebhook'>;
/** The JSON body an operation of the service API takes; `never` for one that takes none. */
// `never` (no request body) is checked first: it would match any shape and infer `unknown`.
export type RequestBodyOf<O extends ServiceOperationId> = O extends unknown
  ? [NonNullable<operations[O]['requestBody']>] extends [never]
    ? never
    : NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer Body } }
      ? Body
      : never
  : never;

/** `T` with every field optional, in objects within it too; arrays are matched whole. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * The filters of `GET /_sandbox/requests` as the typed helpers take them (`requests()` of
 * `connectSandbox()` and of `@fflkit/msw`): `operation` names the operation, and `body` is a
 * part of the body that operation takes, matched field by field.
 */
export type SandboxRequestFilter<O extends ServiceOperationId = ServiceOperationId> = Omit<
  SandboxRequestLogQuery,
  'operation' | 'body'
> & {
  operation?: O;
  body?: DeepPartial<RequestBodyOf<O>>;
};

/** A logged request of the operation `O`: its body typed as that operation takes it. */
export type SandboxLoggedRequest<O extends ServiceOperationId = ServiceOperationId> = Omit<
  SandboxRequestLogEntry,
  'operation' | 'body'
> & {
  operation: O;
  body: RequestBodyOf<O> | null;
};
