import { choiceId } from './choices';
import type { ViolationFinding } from './violations';

// Whether a receipt is visible as soon as it is made, and gone for good once it is deleted, as
// the contract chooses (and the SDK's recovery without duplicates relies on): the receipts each
// caller made and deleted are remembered in order. A read by the same caller that misses a
// receipt it made is noted, and reported once a later read shows the receipt after all: the
// receipt became visible late. (A receipt that never shows again was removed by someone else,
// or by a sandbox reset, which the proxy does not see: that is no violation.) A read that still
// shows a receipt the caller deleted is reported at once: a deleted receipt never comes back.
// A caller is known by a key derived from its token, never by the token itself.

const VISIBLE_AT_ONCE = choiceId('receipts.visible-at-once');
const DELETE = choiceId('receipts.delete');

/** The receipts remembered per caller, and the callers remembered, at most. */
const MAX_RECEIPTS = 10_000;
const MAX_CALLERS = 1_000;

/** What the tracker needs of an exchange of a known operation. */
export interface TrackedExchange {
  /** Who made the request: a key derived from its token. */
  readonly caller: string;
  readonly operation: string;
  /** The method and path template, for the findings. */
  readonly method: string;
  readonly path: string;
  /** The path's `id`, as a number, for the operations on one receipt. */
  readonly id: number | undefined;
  readonly status: number;
  /** The parsed body of an answer its schema accepts; `undefined` for another. */
  readonly body: unknown;
  /** Whether a list was asked for without a filter (page and per_page only). */
  readonly unfiltered: boolean;
  /** When the request arrived and when its answer ended, in the order of the exchanges checked. */
  readonly started: number;
  readonly ended: number;
}

interface Made {
  /** When its creation was answered; 0 for a receipt known only by its deletion. */
  readonly made: number;
  deleted: number | undefined;
  /** The first read that missed it, told once a later read shows it. */
  missed: ViolationFinding | undefined;
}

interface ReceiptPage {
  data: Array<{ id: number }>;
  links: { next: string | null };
  meta: { current_page: number };
}

/** The receipts made and deleted by each caller, and the reads that contradict them. */
export class ReadAfterWrite {
  readonly #callers = new Map<string, Map<number, Made>>();

  /** Remembers a create, a delete or a read; answers what the reads so far contradict. */
  observe(exchange: TrackedExchange): ViolationFinding[] {
    const { operation, status, id } = exchange;
    if (operation === 'createReceipt' && status === 201) {
      const made = (exchange.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof made === 'number') {
        this.#receipts(exchange.caller).set(made, { made: exchange.ended, deleted: undefined, missed: undefined });
      }
      return [];
    }
    const receipts = this.#callers.get(exchange.caller);
    if (operation === 'deleteReceipt' && status === 204 && id !== undefined) {
      const receipt = receipts?.get(id);
      if (receipt !== undefined) receipt.deleted = exchange.ended;
      else this.#receipts(exchange.caller).set(id, { made: 0, deleted: exchange.ended, missed: undefined });
      return [];
    }
    if (receipts === undefined) return [];
    if (operation === 'getReceipt' && id !== undefined) {
      const receipt = receipts.get(id);
      if (receipt === undefined) return [];
      if (status === 404) {
        this.#miss(
          receipt,
          exchange,
          '/status',
          `200: receipt ${id} was made by POST /receipts before this request`,
          '404',
        );
        return [];
      }
      return status === 200 ? this.#shown(receipt, id, exchange, '/status', '200') : [];
    }
    if (operation === 'listReceipts' && status === 200 && exchange.unfiltered && exchange.body !== undefined) {
      return this.#list(receipts, exchange);
    }
    return [];
  }

  #list(receipts: ReadonlyMap<number, Made>, exchange: TrackedExchange): ViolationFinding[] {
    const page = exchange.body as ReceiptPage;
    const ids = new Set(page.data.map((receipt) => receipt.id));
    const first = page.data[0]?.id ?? Number.POSITIVE_INFINITY;
    const last = page.data[page.data.length - 1]?.id ?? Number.NEGATIVE_INFINITY;
    const findings: ViolationFinding[] = [];
    for (const [id, receipt] of receipts) {
      if (ids.has(id)) {
        findings.push(...this.#shown(receipt, id, exchange, '/body/data', 'a page that lists it'));
        continue;
      }
      const belongs =
        (id >= first && id <= last) ||
        (page.links.next === null && id > last && page.data.length > 0) ||
        (page.data.length === 0 && page.meta.current_page === 1);
      if (belongs) {
        this.#miss(
          receipt,
          exchange,
          '/body/data',
          `receipt ${id}, made by POST /receipts before this request`,
          'a page without it',
        );
      }
    }
    return findings;
  }

  /** Notes a read that missed a receipt made (and not deleted) before it began. */
  #miss(receipt: Made, exchange: TrackedExchange, pointer: string, expected: string, seen: string): void {
    if (receipt.made === 0 || receipt.deleted !== undefined || exchange.started <= receipt.made) return;
    receipt.missed ??= {
      method: exchange.method,
      path: exchange.path,
      status: exchange.status,
      pointer,
      choice: VISIBLE_AT_ONCE,
      expected,
      seen,
    };
  }

  /** A read that shows the receipt: a late one that was missed before, or one deleted before. */
  #shown(receipt: Made, id: number, exchange: TrackedExchange, pointer: string, seen: string): ViolationFinding[] {
    if (receipt.deleted !== undefined && exchange.started > receipt.deleted) {
      return [
        {
          method: exchange.method,
          path: exchange.path,
          status: exchange.status,
          pointer,
          choice: DELETE,
          expected:
            pointer === '/status'
              ? `404: receipt ${id} was deleted before this request`
              : `a page without receipt ${id}, deleted before this request`,
          seen,
        },
      ];
    }
    const { missed } = receipt;
    if (missed === undefined) return [];
    receipt.missed = undefined;
    return [{ ...missed, seen: `${missed.seen}, though a later read shows it` }];
  }

  #receipts(caller: string): Map<number, Made> {
    let receipts = this.#callers.get(caller);
    if (receipts === undefined) {
      if (this.#callers.size >= MAX_CALLERS) this.#callers.delete(this.#callers.keys().next().value!);
      receipts = new Map();
      this.#callers.set(caller, receipts);
    }
    if (receipts.size >= MAX_RECEIPTS) receipts.delete(receipts.keys().next().value!);
    return receipts;
  }
}
