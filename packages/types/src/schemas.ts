import type { components, operations } from './generated/openapi';
import type { components as sandboxComponents } from './generated/sandbox';

type Schemas = components['schemas'];
type SandboxSchemas = sandboxComponents['schemas'];

/** A receipt (acquisition record) with its disposition, documents and E4473 data. */
export type Receipt = Schemas['Receipt'];
/** Body of `POST /receipts`. */
export type ReceiptCreate = Schemas['ReceiptCreate'];
/** Body of `PUT /receipts/{id}`: every field optional. */
export type ReceiptUpdate = Schemas['ReceiptUpdate'];
/** A receipt as carried by the `receipt.deleted` event: the receipt plus `deleted_at`. */
export type DeletedReceipt = Schemas['DeletedReceipt'];
/** The disposition recorded on a receipt. */
export type Disposition = Schemas['Disposition'];
/** Body of `POST /receipts/{id}/dispose`. */
export type DispositionCreate = Schemas['DispositionCreate'];
/** A document attached to a receipt (read-only in the API). */
export type ReceiptDocument = Schemas['Document'];
/** The E4473 data of a receipt (read-only in the API). */
export type E4473 = Schemas['E4473'];
/** A logbook of the account with its counts. */
export type Book = Schemas['Book'];
/** A webhook endpoint as the API returns it (the secret is never part of it). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** Body of `POST /webhooks`. */
export type WebhookEndpointCreate = Schemas['WebhookEndpointCreate'];
/** Answer of `POST /webhooks`: the endpoint and its signing secret, shown only here. */
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
/** A name an endpoint can subscribe to: an event name or `*`. */
export type WebhookSubscription = Schemas['WebhookSubscription'];
/** Name of an event the service fires. */
export type WebhookEventName = Schemas['WebhookEventName'];
/**
 * The body of any webhook delivery: a union discriminated on `event`.
 *
 * @example
 * ```ts
 * function describe(event: WebhookEvent): string {
 *   if (event.event === 'ping') return event.data.message;
 *   return `${event.event} ${event.data.serial_number}`;
 * }
 * ```
 */
export type WebhookEvent = Schemas['WebhookEvent'];
/**
 * The webhook event of one name.
 *
 * @example
 * ```ts
 * const onDisposed = (event: WebhookEventOf<'receipt.disposed'>) => event.data.disposition;
 * ```
 */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name }>;
/** Links of a page in the pagination envelope. */
export type PaginationLinks = Schemas['PaginationLinks'];
/** Meta of a page in the pagination envelope. */
export type PaginationMeta = Schemas['PaginationMeta'];
/**
 * One page of a paginated list: `{ data, links, meta }`.
 *
 * @example
 * ```ts
 * const page: Page<Receipt> = await bb.receipts.list({ per_page: 200 });
 * ```
 */
export interface Page<T> {
  data: T[];
  links: PaginationLinks;
  meta: PaginationMeta;
}
/** Body of every error answer. */
export type ErrorBody = Schemas['ErrorBody'];
/** Body of a 422 answer: `errors` maps each request field to its messages. */
export type ValidationErrorBody = Schemas['ValidationErrorBody'];
/** A permission an API key can hold. */
export type Permission = Schemas['Permission'];
/** A type of account; only dealer, manufacturer and importer may use the API. */
export type AccountType = Schemas['AccountType'];
/** Status of a receipt. */
export type ReceiptStatus = Schemas['ReceiptStatus'];
/** A field `GET /search` can search. */
export type SearchField = Schemas['SearchField'];
/** Result of a NICS background check. */
export type NicsResult = Schemas['NicsResult'];
/** Query parameters of `GET /receipts`. */
export type ReceiptListQuery = NonNullable<operations['listReceipts']['parameters']['query']>;
/** Query parameters of `GET /inventory`. */
export type InventoryQuery = NonNullable<operations['listInventory']['parameters']['query']>;
/** Query parameters of `GET /search`. */
export type SearchQuery = operations['searchReceipts']['parameters']['query'];

/** A sandbox account (control API). */
export type SandboxAccount = SandboxSchemas['Account'];
/** A sandbox API token record; the token string itself is shown only when it is made. */
export type SandboxToken = SandboxSchemas['Token'];
/** The sandbox account's clock. */
export type SandboxClock = SandboxSchemas['Clock'];
/** A webhook delivery and its attempts, as the sandbox records them. */
export type SandboxDelivery = SandboxSchemas['Delivery'];
/** One attempt of a webhook delivery. */
export type SandboxDeliveryAttempt = SandboxSchemas['DeliveryAttempt'];
/** One entry of a receipt's audit trail. */
export type AuditEntry = SandboxSchemas['AuditEntry'];
/** One request the sandbox answered, with Authorization redacted. */
export type SandboxRequestLogEntry = SandboxSchemas['RequestLogEntry'];
