import type { DeliveryRecord } from '../outbox/delivery-record';
import { DeliveryQueue, type QueuedAttempt } from './delivery-queue';

/**
 * Which attempts are scheduled, per account: an index of the pending deliveries by due time,
 * derived from the stored records (never persisted; rebuilt on restore). Only accounts with
 * entries have a queue, so looking for due work costs O(accounts with pending deliveries).
 *
 * @example
 * ```ts
 * state.schedule.add(delivery); // a pending delivery, due at its next_attempt_at
 * state.schedule.queue(account.record.id)?.peek();
 * ```
 */
export class DeliverySchedule {
  readonly #queues = new Map<number, DeliveryQueue>();
  #seq = 0;
  #stamp = 0;

  /** Moves whenever an attempt is scheduled, so that a caller can tell that work may be due. */
  get stamp(): number {
    return this.#stamp;
  }

  /** Schedules the next attempt of a pending delivery, at its `next_attempt_at`. */
  add(delivery: DeliveryRecord): void {
    const due = delivery.next_attempt_at;
    if (delivery.state !== 'pending' || due === null) return;
    this.#seq += 1;
    this.requeue(delivery.account_id, { dueMs: Date.parse(due), due, deliveryId: delivery.id, seq: this.#seq });
  }

  /** Puts back an entry taken out of an account's queue. */
  requeue(accountId: number, entry: QueuedAttempt): void {
    let queue = this.#queues.get(accountId);
    if (queue === undefined) {
      queue = new DeliveryQueue();
      this.#queues.set(accountId, queue);
    }
    queue.push(entry);
    this.#stamp += 1;
  }

  /** The queue of an account; `undefined` when it has no entry. */
  queue(accountId: number): DeliveryQueue | undefined {
    return this.#queues.get(accountId);
  }

  /** Every account with entries, and its queue. */
  queues(): IterableIterator<[accountId: number, queue: DeliveryQueue]> {
    return this.#queues.entries();
  }

  /** Forgets an account's queue once it is empty. */
  release(accountId: number): void {
    if (this.#queues.get(accountId)?.size === 0) this.#queues.delete(accountId);
  }

  /** Drops every entry of an account (its deliveries are gone). */
  clear(accountId: number): void {
    this.#queues.delete(accountId);
  }
}
