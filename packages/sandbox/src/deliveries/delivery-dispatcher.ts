import type { CoreDeliveries } from '@fflkit/sandbox-core';

/** The first and the longest pause of sending after a failed save. */
const MIN_PAUSE_MS = 100;
const MAX_PAUSE_MS = 30_000;

/** The most a timer can wait in Node (about 24.8 days); a later attempt is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a {@link DeliveryDispatcher} works with. */
export interface DeliveryDispatcherOptions {
  /** The core's outbox. */
  readonly deliveries: CoreDeliveries;
  /** Saves the core's state; resolves once what changed before the call is saved, rejects when that fails. */
  readonly persist: () => Promise<void>;
  /** Attempts in flight at most; defaults to 32. */
  readonly concurrency?: number | undefined;
  /** The core's wall clock, in epoch milliseconds; defaults to `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** How long {@link DeliveryDispatcher.stop} lets attempts in flight finish; defaults to 1 s. */
  readonly stopGraceMs?: number | undefined;
}

/**
 * Sends the sandbox's webhook deliveries in real time. It wakes when the core schedules an
 * attempt (a change enqueued deliveries, an attempt failed), when an attempt ends, and on a
 * timer for the next retry; each time it first saves the core's state, so that a delivery is
 * sent only once the change that made it is on disk, then starts what is due, at most
 * `concurrency` attempts at once, and saves each outcome as it is recorded.
 *
 * On start it looks at once for what fell due while the sandbox was stopped. On stop it starts
 * nothing more, lets the attempts in flight finish for a grace period, then closes the core's
 * outbox: an attempt still in flight is abandoned, its delivery stays pending and is attempted
 * again after the next start.
 *
 * The webhooks benchmark (event to delivery p50 under 20 ms, 1,000 deliveries/s) relies on the
 * dispatcher looking once per turn of the event loop however many deliveries were enqueued, on
 * its save sharing the group commit of the requests' saves, and on the sender's keep-alive
 * connections.
 */
export class DeliveryDispatcher {
  readonly #deliveries: CoreDeliveries;
  readonly #persist: () => Promise<void>;
  readonly #concurrency: number;
  readonly #now: () => number;
  readonly #stopGraceMs: number;
  #inFlight = 0;
  #running = false;
  #wakeQueued = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: (() => void) | undefined;
  #stopping: Promise<void> | undefined;
  /** How long sending waits after a failed save; 0 while saves succeed. */
  #pauseMs = 0;
  /** Until when (real time, whatever clock the core runs on) a failed save holds sending. */
  #pausedUntil = 0;

  constructor(options: DeliveryDispatcherOptions) {
    this.#deliveries = options.deliveries;
    this.#persist = options.persist;
    this.#concurrency = options.concurrency ?? 32;
    this.#now = options.now ?? Date.now;
    this.#stopGraceMs = options.stopGraceMs ?? 1000;
  }

  /** Attempts in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts sending: at once what is due, then as attempts fall due. */
  start(): void {
    if (this.#running || this.#stopping !== undefined) return;
    this.#running = true;
    this.#unsubscribe = this.#deliveries.subscribe(() => this.#wake());
    this.#wake();
  }

  /**
   * Stops sending: starts nothing more, waits up to the grace period for the attempts in flight,
   * then closes the core's outbox, dropping the outcomes of any still in flight.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#running = false;
    this.#unsubscribe?.();
    clearTimeout(this.#timer);
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, this.#stopGraceMs);
    });
    await Promise.race([this.#deliveries.idle(), grace]);
    clearTimeout(graceTimer);
    this.#deliveries.close();
  }

  /** Looks for due work soon, once however many times it is asked before it looks. */
  #wake(): void {
    if (!this.#running || this.#wakeQueued || Date.now() < this.#pausedUntil) return;
    this.#wakeQueued = true;
    // After the current request's own save has begun, which the save below then joins.
    setImmediate(() => {
      this.#wakeQueued = false;
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    try {
      await this.#persist();
      this.#pauseMs = 0;
    } catch {
      // The failed save reverted the core: deliveries it made are gone, and attempts whose
      // outcome was not saved are due again. Sending resumes after a pause that doubles up to
      // 30 s, so that a full disk does not turn into a stream of repeated attempts.
      this.#pauseMs = Math.min(Math.max(this.#pauseMs * 2, MIN_PAUSE_MS), MAX_PAUSE_MS);
      this.#pausedUntil = Date.now() + this.#pauseMs;
      if (!this.#running) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => {
        this.#pausedUntil = 0;
        this.#wake();
      }, this.#pauseMs);
      this.#timer.unref();
      return;
    }
    if (!this.#running) return;
    const started = this.#deliveries.startDue(this.#concurrency - this.#inFlight);
    this.#inFlight += started.length;
    const land = (): void => {
      this.#inFlight -= 1;
    };
    for (const attempt of started) attempt.then(land, land);
    this.#arm();
  }

  /** Sets the timer for the next attempt due, unless every slot is taken (an ending wakes it). */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#deliveries.nextDueAt();
    if (next === undefined || this.#inFlight >= this.#concurrency) return;
    this.#timer = setTimeout(() => this.#wake(), Math.min(Math.max(0, next - this.#now()), MAX_TIMER_MS));
    this.#timer.unref();
  }
}
