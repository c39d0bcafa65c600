import type { Clock } from '@fflkit/sdk';

interface Timer {
  at: number;
  callback: () => void;
}

/** Lets every pending promise callback and stream read run (one macrotask turn, no waiting). */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A {@link Clock} that moves only when told: timers fire in order of their due time, and every
 * `setTimeout` delay is recorded for assertions on backoff and `Retry-After`.
 */
export class FakeClock implements Clock {
  time: number;
  /** Every delay passed to `setTimeout`, in call order. */
  readonly delays: number[] = [];
  readonly #timers = new Map<number, Timer>();
  #lastId = 0;

  constructor(start = Date.UTC(2025, 2, 14, 15, 4, 5)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): number {
    this.delays.push(ms);
    this.#timers.set(++this.#lastId, { at: this.time + ms, callback });
    return this.#lastId;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing each timer that falls due, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const next = this.#next();
      if (next === undefined || next[1].at > end) break;
      this.#fire(next);
    }
    this.time = end;
    await flush();
  }

  /** Fires timers one after another until `promise` settles; fails when it waits on nothing. */
  async settle<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let turn = 0; turn < 10_000; turn++) {
      await flush();
      if (settled) return promise;
      const next = this.#next();
      if (next === undefined) throw new Error('FakeClock.settle(): the promise waits, but no timer is pending');
      this.#fire(next);
    }
    throw new Error('FakeClock.settle(): more than 10,000 timers fired');
  }

  #next(): [number, Timer] | undefined {
    let earliest: [number, Timer] | undefined;
    for (const entry of this.#timers) if (earliest === undefined || entry[1].at < earliest[1].at) earliest = entry;
    return earliest;
  }

  #fire([id, timer]: [number, Timer]): void {
    this.#timers.delete(id);
    this.time = Math.max(this.time, timer.at);
    timer.callback();
  }
}
