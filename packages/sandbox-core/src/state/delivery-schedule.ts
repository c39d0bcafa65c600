import type { DeliveryRecord } from './records';

/** One scheduled attempt: a delivery and the moment it falls due on its account's clock. */
export interface QueuedAttempt {
  /** When the attempt falls due, in epoch milliseconds on the account's clock. */
  readonly dueMs: number;
  /** The delivery's `next_attempt_at` when it was queued: the entry is stale once that changes. */
  readonly due: string;
  readonly deliveryId: string;
  /**
   * The delivery's rank in a window that delivery chaos shuffled (0 for any other): attempts due
   * at the same moment go in order of rank, so that the shuffled order survives a restart.
   */
  readonly rank: number;
  /** Order of queueing, so that attempts due at the same moment go first come, first served. */
  readonly seq: number;
}

/**
 * The scheduled attempts of one account, earliest first: a binary min-heap on the due time, so
 * adding and taking cost O(log n). Entries are never removed in place: one whose delivery has
 * since been attempted, rescheduled or cancelled is stale, and whoever peeks drops it.
 */
export class DeliveryQueue {
  readonly #heap: QueuedAttempt[] = [];

  /** Number of entries, stale ones included. */
  get size(): number {
    return this.#heap.length;
  }

  /** Adds an entry. */
  push(entry: QueuedAttempt): void {
    const heap = this.#heap;
    heap.push(entry);
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[child] = heap[parent]!;
      child = parent;
    }
    heap[child] = entry;
  }

  /** The earliest entry, left in place. */
  peek(): QueuedAttempt | undefined {
    return this.#heap[0];
  }

  /** Takes the earliest entry out. */
  pop(): QueuedAttempt | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let parent = 0;
    for (;;) {
      const left = parent * 2 + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[parent] = heap[child]!;
      parent = child;
    }
    heap[parent] = last;
    return top;
  }
}

function before(a: QueuedAttempt, b: QueuedAttempt): boolean {
  if (a.dueMs !== b.dueMs) return a.dueMs < b.dueMs;
  return a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq;
}

/**
 * Which attempts are scheduled, per account: an index of the pending deliveries by due time,
 * derived from the stored records (never persisted; rebuilt on restore). Only accounts with
 * entries have a queue, so looking for due work costs O(accounts with pending deliveries).
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
    const entry = { dueMs: Date.parse(due), due, deliveryId: delivery.id, rank: delivery.rank ?? 0, seq: this.#seq };
    this.requeue(delivery.account_id, entry);
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
