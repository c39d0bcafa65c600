import type { DeletedReceipt, Receipt } from '@boundbook/types';
import { createBookState } from '../books/book-state';
import type { DeliveryRecord } from '../outbox/delivery-record';
import { freezeReceipt } from '../receipts/freeze-receipt';
import type { SandboxSnapshot } from '../sandbox-core-types';
import type { WebhookRecord } from '../webhooks/webhook-record';
import { type AccountState, createAccountState } from './account-state';
import type { CoreSnapshot } from './core-snapshot';
import { type CoreState, createCoreState, type Sequences } from './core-state';

/**
 * A state rebuilt from a snapshot of {@link snapshotState}: records in place, every index
 * (receipt ids per account and book, counts, last record numbers, used Form 4473 serials,
 * delivery positions, the schedule of pending deliveries) derived again. A snapshot that is not
 * of format 1, or whose records name an account or book it lacks, is a setup mistake and throws
 * a `TypeError`.
 *
 * @example
 * ```ts
 * const state = restoreState(JSON.parse(file));
 * ```
 */
export function restoreState(snapshot: SandboxSnapshot): CoreState {
  if (snapshot.format !== 1) fail(`format ${String(snapshot.format)} is not supported`);
  const data = snapshot as Partial<CoreSnapshot>;
  const state = createCoreState();
  state.version = typeof data.version === 'number' ? data.version : 0;
  for (const kind of Object.keys(state.sequences) as (keyof Sequences)[]) {
    const value = data.sequences?.[kind];
    if (typeof value === 'number') state.sequences[kind] = value;
  }
  for (const record of data.accounts ?? []) {
    state.accounts.set(record.id, createAccountState(Object.freeze(record)));
  }
  const owner = (accountId: number, what: string): AccountState =>
    state.accounts.get(accountId) ?? fail(`${what} belongs to account ${accountId}, which it lacks`);
  for (const token of data.tokens ?? []) {
    owner(token.account_id, `token ${token.id}`).tokens.set(token.id, Object.freeze(token));
    state.tokensByHash.set(token.hash, token);
  }
  for (const book of byId(data.books)) {
    owner(book.account_id, `book ${book.id}`).books.set(book.name, createBookState(Object.freeze(book)));
  }
  const receiptOwners = new Map<number, AccountState>();
  for (const receipt of byId(data.receipts)) {
    const account = restoreReceipt(owner, receipt, false);
    account.receipts.set(receipt.id, freezeReceipt(receipt));
    receiptOwners.set(receipt.id, account);
  }
  for (const receipt of byId(data.deleted_receipts)) {
    const account = restoreReceipt(owner, receipt, true);
    account.deletedReceipts.set(receipt.id, freezeReceipt(receipt as DeletedReceipt));
    receiptOwners.set(receipt.id, account);
  }
  for (const entry of byId(data.audit)) {
    const account = receiptOwners.get(entry.receipt_id) ?? fail(`audit entry ${entry.id} has no receipt`);
    const trail = account.audit.get(entry.receipt_id);
    if (trail === undefined) account.audit.set(entry.receipt_id, [Object.freeze(entry)]);
    else trail.push(Object.freeze(entry));
  }
  for (const webhook of byId(data.webhooks)) {
    owner(webhook.account_id, `webhook ${webhook.id}`).webhooks.set(webhook.id, restoreWebhook(webhook));
  }
  for (const delivery of data.deliveries ?? []) {
    const account = owner(delivery.account_id, `delivery ${delivery.id}`);
    const record = restoreDelivery(delivery);
    account.deliveryPositions.set(record.id, account.deliveries.length);
    account.deliveries.push(record);
    state.schedule.add(record);
  }
  return state;
}

function restoreReceipt(
  owner: (accountId: number, what: string) => AccountState,
  receipt: Receipt,
  deleted: boolean,
): AccountState {
  const account = owner(receipt.user_id, `receipt ${receipt.id}`);
  const book = account.books.get(receipt.book) ?? fail(`receipt ${receipt.id} names a missing book`);
  book.lastRecord = Math.max(book.lastRecord, receipt.record);
  const serial = receipt.disposition?.form_4473_serial;
  if (serial !== undefined && serial !== null) account.form4473Serials.add(serial);
  if (!deleted) {
    account.index.put(receipt);
    book.index.put(receipt);
  }
  return account;
}

/** An endpoint, with the count of failures that records saved before it existed lack. */
function restoreWebhook(webhook: WebhookRecord): WebhookRecord {
  const failures = (webhook as Partial<WebhookRecord>).consecutive_failures;
  return Object.freeze(failures === undefined ? { ...webhook, consecutive_failures: 0 } : webhook);
}

/** A delivery, with the count of scheduled attempts that records saved before it existed lack. */
function restoreDelivery(delivery: DeliveryRecord): DeliveryRecord {
  const scheduled = (delivery as Partial<DeliveryRecord>).scheduled_attempts;
  return Object.freeze(scheduled === undefined ? { ...delivery, scheduled_attempts: delivery.attempts.length } : delivery);
}

function byId<T extends { id: number }>(records: readonly T[] | undefined): T[] {
  return [...(records ?? [])].sort((a, b) => a.id - b.id);
}

function fail(reason: string): never {
  throw new TypeError(`[@boundbook/sandbox-core] cannot restore the snapshot: ${reason}`);
}
