import type { DeletedReceipt, Receipt } from '@boundbook/types';
import type { AccountRecord } from '../accounts/account-record';
import type { AuditRecord } from '../audit/audit-record';
import type { BookRecord } from '../books/book-record';
import type { DeliveryRecord } from '../outbox/delivery-record';
import type { SandboxSnapshot } from '../sandbox-core-types';
import type { TokenRecord } from '../tokens/token-record';
import type { WebhookRecord } from '../webhooks/webhook-record';
import type { Sequences } from './core-state';

/**
 * The collections of a snapshot of format 1: flat arrays of the stored records (the same
 * objects the core holds, never copies) and the id sequences. Rate-limit windows and the
 * request log are diagnostics kept in memory only, not part of it.
 */
export interface CoreSnapshot extends SandboxSnapshot {
  format: 1;
  /** The state's version when the snapshot was taken. */
  version: number;
  sequences: Sequences;
  accounts: AccountRecord[];
  tokens: TokenRecord[];
  books: BookRecord[];
  /** Live receipts. */
  receipts: Receipt[];
  /** Soft-deleted receipts, each with `deleted_at`. */
  deleted_receipts: DeletedReceipt[];
  audit: AuditRecord[];
  webhooks: WebhookRecord[];
  /** Deliveries of every account, oldest first per account. */
  deliveries: DeliveryRecord[];
}
