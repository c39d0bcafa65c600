import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type ConformanceFetch, ProbeClient } from './probe-client';
import { startProbeReceiver } from './probe-receiver';
import { runReadProbes } from './read-probes';
import { type ConformanceReport, Verdicts } from './verdicts';
import { runWriteProbes } from './write-probes';

// A conformance run: the read-only probes, then (when allowed) the probes that write, against a
// running service, and the verdict on every choice of the contract.

/** Options of `runConformance()`. */
export interface ConformanceOptions {
  /** The service's base URL, such as `https://logbook.example.com/rest/v1`. */
  readonly baseUrl: string;
  /** A token of the account probed; with `allowWrites`, one of the service's own sandbox tokens. */
  readonly token: string;
  /** A token of the same service that holds the read permission only, for the probes of 403. */
  readonly readToken?: string | undefined;
  /** Whether to run the probes that write (receipts, a webhook endpoint), which the run deletes again. */
  readonly allowWrites?: boolean | undefined;
  /** The book the run's receipts go into; the account's first book by default. */
  readonly book?: string | undefined;
  /** The fetch the run sends with; the global one by default. */
  readonly fetch?: ConformanceFetch | undefined;
  /** Waits `ms` milliseconds (a 429 waited out, a receipt not visible yet); a timer by default. */
  readonly wait?: ((ms: number) => Promise<void>) | undefined;
  /** The wall clock, for the run's name and today's date; `Date.now` by default. */
  readonly now?: (() => number) | undefined;
  /** How long deliveries to the run's receiver are awaited, in milliseconds; 10 s by default. */
  readonly deliveryTimeoutMs?: number | undefined;
}

/** Probes a running service and judges every choice of the contract; see `runConformance()` in the package. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? ((ms: number) => delay(ms));
  const stamp = new Date(now()).toISOString();
  const run = `${stamp.slice(0, 19).replace(/[-:]/g, '')}Z-${randomBytes(3).toString('hex')}`;
  const verdicts = new Verdicts();
  const client = new ProbeClient({
    baseUrl: options.baseUrl,
    token: options.token,
    readToken: options.readToken,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    wait,
    observe: (exchange) => verdicts.observe(exchange),
  });
  const notes: string[] = [];
  const sight = await runReadProbes(client, verdicts);
  const writes = options.allowWrites === true;
  if (writes) {
    const book = options.book ?? sight.books[0];
    if (book === undefined) {
      notes.push('the account has no book, so the probes that write did not run: pass --book');
    } else {
      const receiver = await startProbeReceiver(`/fflkit-conformance/${run}`);
      try {
        await runWriteProbes({
          client,
          verdicts,
          run,
          book,
          sampleMissing: sight.sample === undefined,
          today: stamp.slice(0, 10),
          receiver,
          wait,
          deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
          notes,
        });
      } finally {
        await receiver.close();
      }
    }
  }
  return verdicts.report({ service: options.baseUrl, run, writes, notes });
}
