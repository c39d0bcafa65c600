import type { DeliverySchedule } from './delivery-schedule';
import type { QueuedAttempt } from './delivery-queue';

/** An attempt in flight. */
interface Flight {
  readonly accountId: number;
  readonly promise: Promise<void>;
}

/**
 * The delivery attempts in flight, at most one per delivery. A scheduled entry met while its
 * delivery has an attempt in flight is parked here and put back in the schedule once that
 * attempt has ended, so that the entry is neither lost nor attempted twice at once.
 *
 * @example
 * ```ts
 * const flights = new AttemptFlights(state.schedule);
 * flights.add(accountId, delivery.id, attempt);
 * await flights.settled(accountId);
 * ```
 */
export class AttemptFlights {
  readonly #schedule: DeliverySchedule;
  readonly #flights = new Map<string, Flight>();
  readonly #parked = new Map<string, { readonly accountId: number; readonly entry: QueuedAttempt }>();

  constructor(schedule: DeliverySchedule) {
    this.#schedule = schedule;
  }

  /** Whether an attempt of the delivery is in flight. */
  has(deliveryId: string): boolean {
    return this.#flights.has(deliveryId);
  }

  /** The attempt of the delivery in flight, if any. */
  get(deliveryId: string): Promise<void> | undefined {
    return this.#flights.get(deliveryId)?.promise;
  }

  /** Takes an attempt in flight until `promise` settles. */
  add(accountId: number, deliveryId: string, promise: Promise<void>): void {
    this.#flights.set(deliveryId, { accountId, promise });
    const land = (): void => {
      this.#flights.delete(deliveryId);
      const parked = this.#parked.get(deliveryId);
      if (parked === undefined) return;
      this.#parked.delete(deliveryId);
      this.#schedule.requeue(parked.accountId, parked.entry);
    };
    promise.then(land, land);
  }

  /** Keeps a scheduled entry of a delivery in flight until its attempt has ended. */
  park(accountId: number, entry: QueuedAttempt): void {
    this.#parked.set(entry.deliveryId, { accountId, entry });
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
