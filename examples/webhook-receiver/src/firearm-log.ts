import type { WebhookEventName } from '@fflkit/webhooks';

/** One delivery the receiver processed: which firearm it concerned and what happened to it. */
export interface FirearmLogEntry {
  /** `X-SVC-Delivery`: the same across the service's retries of one delivery. */
  readonly deliveryId: string;
  readonly event: Exclude<WebhookEventName, 'ping'>;
  readonly receiptId: number;
  readonly book: string;
  /** Line number of the receipt within its book. */
  readonly record: number;
  readonly serialNumber: string;
  /** One line for a person: `Acquired Example Arms Co. EX-9 (EXA0012345) from ...`. */
  readonly summary: string;
}

/** Options of {@link createFirearmLog}. */
export interface FirearmLogOptions {
  /** Told of each entry once it is added: print it, queue it, or wake a test waiting for it. */
  readonly onEntry?: (entry: FirearmLogEntry) => void;
}

/** The receiver's record of processed deliveries, oldest first. */
export interface FirearmLog {
  readonly entries: readonly FirearmLogEntry[];
  add(entry: FirearmLogEntry): void;
}

/**
 * An in-memory log of the deliveries the receiver processed. A real integration writes to its
 * own database instead; the handlers only need `add`.
 *
 * @example
 * ```ts
 * const log = createFirearmLog({ onEntry: (entry) => console.log(entry.summary) });
 * ```
 */
export function createFirearmLog(options: FirearmLogOptions = {}): FirearmLog {
  const entries: FirearmLogEntry[] = [];
  return {
    entries,
    add(entry) {
      entries.push(entry);
      options.onEntry?.(entry);
    },
  };
}
