import { readActivityEvents } from '@fflkit/sandbox-core/control';
import type { SandboxDelivery, SandboxRequestLogEntry } from '@fflkit/types';

// The account's activity as it happens: `GET /_sandbox/events`, server-sent events read with
// fetch, because EventSource cannot send the Authorization header and the token must never be
// in a URL. The Deliveries and Requests pages listen to it; it reconnects after a lost
// connection, waiting longer each time, and stops for good on a 401.

/** What the feed tells of. */
export interface ActivityListeners {
  request: (entry: SandboxRequestLogEntry) => void;
  delivery: (delivery: SandboxDelivery) => void;
}

type Listener<K extends keyof ActivityListeners> = ActivityListeners[K];

/** The first wait before reconnecting, and the longest, in milliseconds. */
const RETRY_MS = [1000, 30_000] as const;

/** One stream of the account's events, shared by the pages. */
export class ActivityFeed {
  readonly #token: string;
  readonly #onUnauthenticated: () => void;
  readonly #listeners: { [K in keyof ActivityListeners]: Set<Listener<K>> } = {
    request: new Set(),
    delivery: new Set(),
  };
  readonly #abort = new AbortController();
  #retryMs: number = RETRY_MS[0];

  /** Follows the account of `token`; `onUnauthenticated` runs when the sandbox refuses it. */
  constructor(token: string, onUnauthenticated: () => void) {
    this.#token = token;
    this.#onUnauthenticated = onUnauthenticated;
  }

  /** Starts following; it goes on until {@link stop}. */
  start(): void {
    void this.#follow();
  }

  /** Stops following for good. */
  stop(): void {
    this.#abort.abort();
  }

  /** Calls `listener` for each event of `kind`; answers the function that stops calling it. */
  on<K extends keyof ActivityListeners>(kind: K, listener: Listener<K>): () => void {
    const listeners = this.#listeners[kind] as Set<Listener<K>>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  async #follow(): Promise<void> {
    while (!this.#abort.signal.aborted) {
      try {
        const response = await fetch('/_sandbox/events', {
          headers: { authorization: `Bearer ${this.#token}`, accept: 'text/event-stream' },
          signal: this.#abort.signal,
          cache: 'no-store',
        });
        if (response.status === 401) {
          this.#onUnauthenticated();
          return;
        }
        if (response.ok && response.body !== null) {
          this.#retryMs = RETRY_MS[0];
          await this.#read(response.body);
        }
      } catch {
        // A lost connection (the sandbox stopped or restarted): try again below.
      }
      if (this.#abort.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, this.#retryMs));
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS[1]);
    }
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    for await (const { event, data } of readActivityEvents(body)) {
      for (const listener of this.#listeners[event]) (listener as (value: unknown) => void)(data);
    }
  }
}
