import { choiceId } from './choices';
import type { ViolationFinding } from './violations';

// Whether a receipt is visible as soon as it is made, and gone as soon as it is deleted, as the
// contract chooses (and the SDK's recovery without duplicates relies on): the receipts each
// caller made and deleted are remembered in order, and a later read by the same caller that
// misses one, or still shows a deleted one, is a violation. A caller is known by a key derived
// from its token, never by the token itself.

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
  readonly made: number;
  deleted: number | undefined;
}

/** The receipts made and deleted by each caller, and the reads that contradict them. */
export class ReadAfterWrite {
  readonly #callers = new Map<string, Map<number, Made>>();

  /** Remembers a create or a delete; for a read, the findings of what it misses or shows. */
  observe(exchange: TrackedExchange): Array<Omit<ViolationFinding, 'method' | 'path' | 'status'>> {
    const { operation, status, id } = exchange;
    if (operation === 'createReceipt' && status === 201) {
      const made = (exchange.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof made === 'number')
        this.#receipts(exchange.caller).set(made, { made: exchange.ended, deleted: undefined });
      return [];
    }
    const receipts = this.#callers.get(exchange.caller);
    if (operation === 'deleteReceipt' && status === 204 && id !== undefined) {
      const receipt = receipts?.get(id);
      if (receipt !== undefined) receipt.deleted = exchange.ended;
      else this.#receipts(exchange.caller).set(id, { made: 0, deleted: exchange.ended });
      return [];
    }
    if (receipts === undefined) return [];
    if (operation === 'getReceipt' && id !== undefined) return this.#read(receipts.get(id), id, exchange);
    if (operation === 'listReceipts' && status === 200 && exchange.unfiltered && exchange.body !== undefined) {
      return this.#list(receipts, exchange);
    }
    return [];
  }

  #read(receipt: Made | undefined, id: number, exchange: TrackedExchange) {
    if (receipt === undefined) return [];
    if (
      exchange.status === 404 &&
      receipt.deleted === undefined &&
      receipt.made > 0 &&
      exchange.started > receipt.made
    ) {
      return [
        {
          pointer: '/status',
          choice: VISIBLE_AT_ONCE,
          expected: `200: receipt ${id} was made by POST /receipts before this request`,
          seen: '404',
        },
      ];
    }
    if (exchange.status === 200 && receipt.deleted !== undefined && exchange.started > receipt.deleted) {
      return [
        {
          pointer: '/status',
          choice: DELETE,
          expected: `404: receipt ${id} was deleted before this request`,
          seen: '200',
        },
      ];
    }
    return [];
  }

  #list(receipts: ReadonlyMap<number, Made>, exchange: TrackedExchange) {
    const page = exchange.body as {
      data: Array<{ id: number }>;
      links: { next: string | null };
      meta: { current_page: number };
    };
    const ids = new Set(page.data.map((receipt) => receipt.id));
    const first = page.data[0]?.id ?? Number.POSITIVE_INFINITY;
    const last = page.data[page.data.length - 1]?.id ?? Number.NEGATIVE_INFINITY;
    const lastPage = page.links.next === null;
    for (const [id, receipt] of receipts) {
      if (receipt.deleted !== undefined) {
        if (exchange.started > receipt.deleted && ids.has(id)) {
          return [
            {
              pointer: '/body/data',
              choice: DELETE,
              expected: `a page without receipt ${id}, deleted before this request`,
              seen: 'a page that lists it',
            },
          ];
        }
        continue;
      }
      if (receipt.made === 0 || exchange.started <= receipt.made || ids.has(id)) continue;
      const inRange =
        (id >= first && id <= last) ||
        (lastPage && id > last && page.data.length > 0) ||
        (page.data.length === 0 && page.meta.current_page === 1);
      if (inRange) {
        return [
          {
            pointer: '/body/data',
            choice: VISIBLE_AT_ONCE,
            expected: `receipt ${id}, made by POST /receipts before this request`,
            seen: 'a page without it',
          },
        ];
      }
    }
    return [];
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
