import type { DeletedReceipt, Receipt } from '@boundbook/types';
import type { AccountRecord } from '../accounts/account-record';
import type { AuditRecord } from '../audit/audit-record';
import type { BookState } from '../books/book-state';
import type { DeliveryRecord } from '../outbox/delivery-record';
import { ReceiptIndex } from '../receipts/receipt-index';
import type { RequestLogRecord } from '../request-log/request-log-record';
import type { TokenRecord } from '../tokens/token-record';
import type { WebhookRecord } from '../webhooks/webhook-record';

/**
 * Everything one account owns, with the indexes that keep reads and writes cheap. Records are
 * immutable: a change puts a new object in place of the old one.
 */
export interface AccountState {
  record: AccountRecord;
  readonly tokens: Map<number, TokenRecord>;
  /** Books by name, in id order. */
  readonly books: Map<string, BookState>;
  /** Live receipts by id. */
  readonly receipts: Map<number, Receipt>;
  /** Soft-deleted receipts by id: 404 to the API, kept with their audit trail. */
  readonly deletedReceipts: Map<number, DeletedReceipt>;
  /** Live receipts of the whole account, by id. */
  readonly index: ReceiptIndex;
  /** Audit entries per receipt id, oldest first. */
  readonly audit: Map<number, AuditRecord[]>;
  /** Form 4473 serials used by dispositions, deleted receipts included. */
  readonly form4473Serials: Set<string>;
  /** Webhook endpoints by id, in id order. */
  readonly webhooks: Map<number, WebhookRecord>;
  /** Deliveries, oldest first. */
  readonly deliveries: DeliveryRecord[];
  /** The position of each delivery in `deliveries`, by delivery id. */
  readonly deliveryPositions: Map<string, number>;
  /** The last service API requests, oldest first. */
  readonly requests: RequestLogRecord[];
}

/**
 * A new account's state, without books or tokens.
 *
 * @example
 * ```ts
 * state.accounts.set(record.id, createAccountState(record));
 * ```
 */
export function createAccountState(record: AccountRecord): AccountState {
  return {
    record,
    tokens: new Map(),
    books: new Map(),
    receipts: new Map(),
    deletedReceipts: new Map(),
    index: new ReceiptIndex(),
    audit: new Map(),
    form4473Serials: new Set(),
    webhooks: new Map(),
    deliveries: [],
    deliveryPositions: new Map(),
    requests: [],
  };
}
