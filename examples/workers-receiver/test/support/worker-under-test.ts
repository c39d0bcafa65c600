import type { ReceiptEventMessage } from '../../src/receipt-event-queue';

/**
 * The receiver Worker running in one runtime, reachable over HTTP at `origin`, with a queue whose
 * messages reach the test. The origin is known before the Worker starts: the endpoint has to be
 * registered with its URL to learn the secret the Worker starts with.
 */
export interface WorkerUnderTest {
  /** Origin of the Worker, such as `http://127.0.0.1:53124`. */
  readonly origin: string;
  /** Starts the Worker with its bindings: `secret`, and the queue that feeds `messages`. */
  start(secret: string): Promise<void>;
  /** The queue's messages, in the order its consumer got them. */
  readonly messages: readonly ReceiptEventMessage[];
  /** Resolves with `messages` once there are `count` of them; rejects, naming those there are, after 4 s. */
  received(count: number): Promise<readonly ReceiptEventMessage[]>;
  close(): Promise<void>;
}

/** The messages a queue's consumer got, with a promise for the next ones: nothing polls. */
export interface MessageLog {
  readonly messages: readonly ReceiptEventMessage[];
  add(message: ReceiptEventMessage): void;
  received(count: number): Promise<readonly ReceiptEventMessage[]>;
}

const RECEIVED_TIMEOUT_MS = 4000;

/**
 * A `MessageLog`, fed by whatever consumes the Worker's queue.
 *
 * @example
 * ```ts
 * const log = createMessageLog();
 * const queue = { send: async (message: ReceiptEventMessage) => log.add(message) };
 * ```
 */
export function createMessageLog(): MessageLog {
  const messages: ReceiptEventMessage[] = [];
  const waiting: { count: number; resolve: (messages: readonly ReceiptEventMessage[]) => void }[] = [];
  return {
    messages,
    add(message) {
      messages.push(message);
      for (const waiter of waiting.filter(({ count }) => messages.length >= count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(messages);
      }
    },
    received(count) {
      if (messages.length >= count) return Promise.resolve(messages);
      return new Promise((resolve, reject) => {
        // Within vitest's 5 s per test, so that a missing message fails with what did arrive.
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          const got = messages.map(({ event }) => event.event).join(', ') || 'none';
          reject(new Error(`waited 4 s for ${count} queued messages; got ${messages.length}: ${got}`));
        }, RECEIVED_TIMEOUT_MS);
        const waiter = {
          count,
          resolve: (all: readonly ReceiptEventMessage[]) => {
            clearTimeout(timer);
            resolve(all);
          },
        };
        waiting.push(waiter);
      });
    },
  };
}
