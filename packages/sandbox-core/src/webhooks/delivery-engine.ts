import { findDelivery } from '../state/collections';
import type { AccountState, CoreStore } from '../state/store';
import type { DeliverySchedule, QueuedAttempt } from '../state/delivery-schedule';
import type { DeliveryRecord } from '../state/records';
import type { HmacSha256Hex } from '../support/crypto';
import { accountNow } from '../support/time';
import {
  type AttemptKind,
  buildDeliveryRequest,
  type DeliveryRequest,
  type DeliverySender,
  recordAttempt,
  recordDuplicate,
  sendSafely,
} from './attempts';
import type { PendingAnswer } from './deliveries';

/**
 * The outbox of a core, for whoever dispatches its webhook deliveries in real time (the
 * sandbox's dispatcher, MSW handlers): which scheduled attempts are due on their accounts'
 * clocks, and starting them through the core's transport. Control calls (ping, redeliver, clock
 * advance) make their own attempts before answering.
 */
export interface CoreDeliveries {
  /**
   * Starts up to `limit` scheduled attempts that are due now on their accounts' clocks,
   * earliest first, through the core's `sendDelivery`. Each promise resolves once the attempt's
   * outcome is recorded (a state change to persist); none rejects.
   */
  startDue(limit: number): Promise<void>[];
  /**
   * When the next scheduled attempt falls due, in epoch milliseconds of the core's `now`
   * (earlier than now when one is overdue); `undefined` when none can start. Attempts in flight
   * and those of an account whose clock advance is running its attempts are left out.
   */
  nextDueAt(): number | undefined;
  /**
   * Calls `listener` (synchronously, so it should only schedule work) whenever attempts may have
   * fallen due or a slot may have freed: a change scheduled an attempt, an attempt ended, a clock
   * advance ended. Returns the function that unsubscribes.
   */
  subscribe(listener: () => void): () => void;
  /** Resolves once no attempt is in flight. */
  idle(): Promise<void>;
  /**
   * Stops making attempts for good: none starts any more, and the outcomes of attempts in flight
   * are dropped, so their deliveries stay pending to be attempted again after a restart.
   */
  close(): void;
}

/** How many attempts due at the same moment a clock advance makes at once. */
const ADVANCE_BATCH = 32;

/** What an engine works with. */
export interface DeliveryEngineOptions {
  readonly store: CoreStore;
  /** Wall-clock epoch milliseconds: the core's `now`. */
  readonly now: () => number;
  readonly send: DeliverySender;
  /** The lowercase hex HMAC-SHA256 with which deliveries are signed. */
  readonly hmacSha256Hex: HmacSha256Hex;
}

/** The earliest scheduled attempt that can start, and where it is. */
interface DueAttempt {
  readonly account: AccountState;
  readonly entry: QueuedAttempt;
  /** When it falls due on the wall clock: its due time less the account's clock offset. */
  readonly wallDueMs: number;
}

/**
 * Makes delivery attempts through the injected transport and records their outcomes: the
 * scheduled attempts a dispatcher starts as they fall due ({@link CoreDeliveries}), and those a
 * control call waits for (a ping, a redelivery, every attempt within a clock advance). It holds
 * no timer: when to look for due work is the dispatcher's business.
 *
 * A delivery has at most one attempt in flight, and the deliveries that delivery chaos held in a
 * shuffled window have at most one per endpoint, so that the receiver gets them in their
 * shuffled order. While a clock advance of an account runs its
 * attempts, in order of due time with the account's clock as it was at each, the dispatcher gets
 * none of that account's, so that no attempt is made at the advanced time out of order. Once the
 * engine is closed, it starts nothing and drops the outcomes of attempts still in flight: their
 * deliveries stay pending and are attempted again by the next engine.
 */
export class DeliveryEngine implements CoreDeliveries {
  readonly #store: CoreStore;
  readonly #now: () => number;
  readonly #send: DeliverySender;
  readonly #hmac: HmacSha256Hex;
  readonly #flights: AttemptFlights;
  /** The last clock advance of each account whose attempts are still being made. */
  readonly #advances = new Map<number, Promise<void>>();
  readonly #listeners = new Set<() => void>();
  #closed = false;
  #stamp: number;

  constructor(options: DeliveryEngineOptions) {
    this.#store = options.store;
    this.#now = options.now;
    this.#send = options.send;
    this.#hmac = options.hmacSha256Hex;
    this.#stamp = options.store.schedule.stamp;
    this.#flights = new AttemptFlights(options.store.schedule);
  }

  startDue(limit: number): Promise<void>[] {
    const started: Promise<void>[] = [];
    const wallMs = this.#now();
    while (!this.#closed && started.length < limit) {
      const due = this.#earliest();
      if (due === undefined || due.wallDueMs > wallMs) break;
      this.#store.schedule.queue(due.account.record.id)?.pop();
      const atMs = accountNow(wallMs, due.account.record);
      started.push(this.#attempt(due.account, due.entry.deliveryId, atMs, 'scheduled'));
    }
    return started;
  }

  nextDueAt(): number | undefined {
    return this.#closed ? undefined : this.#earliest()?.wallDueMs;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  idle(): Promise<void> {
    return this.#flights.settled();
  }

  close(): void {
    this.#closed = true;
  }

  /**
   * Makes the attempts an answer waits for, then renders it. The attempt of a ping or a
   * redelivery, and the lock of a clock advance, are taken before this returns its promise.
   */
  async complete(answer: PendingAnswer): Promise<unknown> {
    const { work } = answer;
    if (work.kind === 'advance') await this.#advance(work.accountId, work.fromMs, work.toMs);
    else await this.#attemptNow(work.accountId, work.deliveryId, work.scheduled ? 'scheduled' : 'extra');
    return answer.render();
  }

  /** Tells the listeners that attempts may be due, when an attempt was scheduled since last time. */
  notifyIfScheduled(): void {
    if (this.#store.schedule.stamp !== this.#stamp) this.#notify();
  }

  #notify(): void {
    this.#stamp = this.#store.schedule.stamp;
    if (this.#closed) return;
    for (const listener of this.#listeners) listener();
  }

  /** The earliest attempt that can start: of an account not being advanced, not in flight. */
  #earliest(): DueAttempt | undefined {
    let earliest: DueAttempt | undefined;
    for (const [accountId] of this.#store.schedule.queues()) {
      if (this.#advances.has(accountId)) continue;
      const account = this.#store.accounts.get(accountId);
      const entry = account === undefined ? undefined : this.#head(account);
      if (account === undefined || entry === undefined) {
        // Nothing left but stale entries: the account leaves the schedule until it gets more.
        this.#store.schedule.clear(accountId);
        continue;
      }
      const wallDueMs = entry.dueMs - account.record.offset_seconds * 1000;
      if (earliest === undefined || wallDueMs < earliest.wallDueMs) earliest = { account, entry, wallDueMs };
    }
    return earliest;
  }

  /**
   * The account's earliest entry that can start; drops stale entries on the way and parks those
   * whose delivery (or, for a shuffled window's, endpoint) has an attempt in flight.
   */
  #head(account: AccountState): QueuedAttempt | undefined {
    const queue = this.#store.schedule.queue(account.record.id);
    if (queue === undefined) return undefined;
    for (let entry = queue.peek(); entry !== undefined; entry = queue.peek()) {
      const delivery = findDelivery(account, entry.deliveryId);
      if (delivery?.state !== 'pending' || delivery.next_attempt_at !== entry.due) {
        queue.pop();
        continue;
      }
      const busy = this.#flights.busyLane(delivery.id, endpointLane(delivery));
      if (busy === undefined) return entry;
      queue.pop();
      this.#flights.park(busy, account.record.id, entry);
    }
    return undefined;
  }

  /** One attempt now, after the one in flight of the same delivery, if any. */
  async #attemptNow(accountId: number, deliveryId: string, kind: AttemptKind): Promise<void> {
    const account = this.#store.accounts.get(accountId);
    if (account === undefined) return;
    for (let flight = this.#flights.get(deliveryId); flight !== undefined; flight = this.#flights.get(deliveryId)) {
      await flight;
    }
    await this.#attempt(account, deliveryId, accountNow(this.#now(), account.record), kind);
  }

  /** Every attempt of the account due up to `toMs`, in order, once earlier advances are done. */
  async #advance(accountId: number, fromMs: number, toMs: number): Promise<void> {
    const run = this.#runWindow(accountId, fromMs, toMs, this.#advances.get(accountId));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#advances.set(accountId, tail);
    try {
      await run;
    } finally {
      if (this.#advances.get(accountId) === tail) this.#advances.delete(accountId);
      this.#notify();
    }
  }

  async #runWindow(
    accountId: number,
    fromMs: number,
    toMs: number,
    previous: Promise<void> | undefined,
  ): Promise<void> {
    if (previous !== undefined) await previous;
    const account = this.#store.accounts.get(accountId);
    if (account === undefined) return;
    for (;;) {
      await this.#flights.settled(accountId);
      if (this.#closed) return;
      const queue = this.#store.schedule.queue(accountId);
      const batch: QueuedAttempt[] = [];
      const lanes = new Set<string>();
      while (queue !== undefined && batch.length < ADVANCE_BATCH) {
        const entry = this.#head(account);
        if (entry === undefined || entry.dueMs > toMs || (batch.length > 0 && entry.dueMs !== batch[0]?.dueMs)) break;
        // A shuffled window's attempts go one at a time: the next one waits for the next batch.
        const lane = endpointLane(findDelivery(account, entry.deliveryId)!);
        if (lane !== undefined && lanes.has(lane)) break;
        if (lane !== undefined) lanes.add(lane);
        queue.pop();
        batch.push(entry);
      }
      if (batch.length === 0) {
        if (this.#flights.inFlight(accountId).length > 0) continue;
        this.#store.schedule.release(accountId);
        return;
      }
      await Promise.all(
        batch.map((entry) => this.#attempt(account, entry.deliveryId, Math.max(entry.dueMs, fromMs), 'scheduled')),
      );
    }
  }

  /**
   * Starts one attempt, taken in flight at once; resolves once its outcome is recorded. Nothing
   * is sent for a delivery that is gone or whose endpoint is gone or disabled.
   */
  #attempt(account: AccountState, deliveryId: string, atMs: number, kind: AttemptKind): Promise<void> {
    const delivery = findDelivery(account, deliveryId);
    const webhook = delivery === undefined ? undefined : account.webhooks.get(delivery.webhook_id);
    if (this.#closed || delivery === undefined || webhook?.enabled !== true) return Promise.resolve();
    const request = buildDeliveryRequest(delivery, webhook, this.#hmac);
    const promise = this.#fly(account, delivery, request, atMs, kind);
    this.#flights.add(account.record.id, deliveryId, lanesOf(delivery), promise);
    return promise.finally(() => this.#notify());
  }

  /**
   * Sends an attempt and records its outcome; for a delivery that delivery chaos duplicated,
   * then sends the same request again, once the first is answered, and records that too.
   */
  async #fly(
    account: AccountState,
    delivery: DeliveryRecord,
    request: DeliveryRequest,
    atMs: number,
    kind: AttemptKind,
  ): Promise<void> {
    const startedMs = this.#now();
    const outcome = await sendSafely(this.#send, request);
    if (this.#closed) return;
    const answeredMs = this.#now();
    const result = { kind, atMs, outcome, durationMs: answeredMs - startedMs };
    this.#store.transaction(() => recordAttempt(this.#store, account, delivery.id, result));
    if (delivery.duplicate !== true || account.webhooks.get(delivery.webhook_id)?.enabled !== true) return;
    if (findDelivery(account, delivery.id) === undefined) return;
    const again = await sendSafely(this.#send, request);
    if (this.#closed) return;
    const duplicate = { atMs: atMs + (answeredMs - startedMs), outcome: again, durationMs: this.#now() - answeredMs };
    this.#store.transaction(() => recordDuplicate(this.#store, account, delivery.id, duplicate));
  }
}

/**
 * The lanes an attempt of a delivery takes while in flight, one attempt per lane: its delivery's,
 * and its endpoint's when delivery chaos held it in a shuffled window.
 */
function lanesOf(delivery: DeliveryRecord): string[] {
  const lane = endpointLane(delivery);
  return lane === undefined ? [delivery.id] : [delivery.id, lane];
}

/** The lane of the endpoint of a delivery held in a shuffled window; `undefined` for any other. */
function endpointLane(delivery: DeliveryRecord): string | undefined {
  return delivery.rank === undefined ? undefined : `webhook ${delivery.webhook_id}`;
}

/** An attempt in flight. */
interface Flight {
  readonly accountId: number;
  readonly promise: Promise<void>;
}

/** A scheduled entry kept out of the schedule while its lane is taken. */
interface Parked {
  readonly accountId: number;
  readonly entry: QueuedAttempt;
}

/**
 * The delivery attempts in flight, each taking its lanes (its delivery's, and its endpoint's
 * for a shuffled window's): at most one attempt per lane. A scheduled entry met while one of its
 * lanes is taken is parked here and put back in the schedule once that lane is free, so that
 * the entry is neither lost nor attempted at the same time as the attempt it waits for.
 */
class AttemptFlights {
  readonly #schedule: DeliverySchedule;
  readonly #flights = new Map<string, Flight>();
  /** The lanes taken, each with its count of attempts in flight. */
  readonly #taken = new Map<string, number>();
  readonly #parked = new Map<string, Parked[]>();

  constructor(schedule: DeliverySchedule) {
    this.#schedule = schedule;
  }

  /** The attempt of the delivery in flight, if any. */
  get(deliveryId: string): Promise<void> | undefined {
    return this.#flights.get(deliveryId)?.promise;
  }

  /**
   * The lane of a delivery (and of its endpoint, for a shuffled window's) that an attempt in
   * flight takes; `undefined` when both are free.
   */
  busyLane(deliveryLane: string, endpointLane: string | undefined): string | undefined {
    if (this.#taken.has(deliveryLane)) return deliveryLane;
    return endpointLane !== undefined && this.#taken.has(endpointLane) ? endpointLane : undefined;
  }

  /** Takes an attempt in flight, in its lanes, until `promise` settles. */
  add(accountId: number, deliveryId: string, lanes: readonly string[], promise: Promise<void>): void {
    this.#flights.set(deliveryId, { accountId, promise });
    for (const lane of lanes) this.#taken.set(lane, (this.#taken.get(lane) ?? 0) + 1);
    const land = (): void => {
      this.#flights.delete(deliveryId);
      for (const lane of lanes) {
        const count = (this.#taken.get(lane) ?? 1) - 1;
        if (count > 0) {
          this.#taken.set(lane, count);
          continue;
        }
        this.#taken.delete(lane);
        const parked = this.#parked.get(lane) ?? [];
        this.#parked.delete(lane);
        for (const { accountId: owner, entry } of parked) this.#schedule.requeue(owner, entry);
      }
    };
    promise.then(land, land);
  }

  /** Keeps a scheduled entry whose lane is taken until that lane is free. */
  park(lane: string, accountId: number, entry: QueuedAttempt): void {
    const parked = this.#parked.get(lane);
    if (parked === undefined) this.#parked.set(lane, [{ accountId, entry }]);
    else parked.push({ accountId, entry });
  }

  /** The attempts in flight, of one account or of all. */
  inFlight(accountId?: number): Promise<void>[] {
    const promises: Promise<void>[] = [];
    for (const flight of this.#flights.values()) {
      if (accountId === undefined || flight.accountId === accountId) promises.push(flight.promise);
    }
    return promises;
  }

  /** Resolves once no attempt is in flight, of one account or of all. */
  async settled(accountId?: number): Promise<void> {
    for (let flights = this.inFlight(accountId); flights.length > 0; flights = this.inFlight(accountId)) {
      await Promise.all(flights);
    }
  }
}
