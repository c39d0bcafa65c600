import { MAX_PER_PAGE, type Page, type Receipt, type ReceiptListQuery } from '@boundbook/types';
import type { Clock } from '../transport/clock';
import { fingerprint, formatSeconds, type SyncCheckpoint } from './sync-checkpoint';

/**
 * One receipt of an incremental sync and the checkpoint to store once it is handled.
 *
 * @example
 * ```ts
 * for await (const change of bb.receipts.changesSince(stored)) await save(change.receipt, change.checkpoint);
 * ```
 */
export interface ReceiptChange {
  readonly receipt: Receipt;
  /** Computed when read, from every pair yielded so far: in a long first sync, read it now and then. */
  readonly checkpoint: SyncCheckpoint;
}

type Seen = SyncCheckpoint['seen'][number];

// A pass that sees the list shrink (a deletion shifts the page numbers) is read again, this often.
const MAX_PASSES = 3;

/**
 * The generator behind `receipts.changesSince()`; the README's "Incremental sync" explains it.
 *
 * A pass pages through `GET /receipts?since=` to its end before `after` moves, from one second
 * before `after` (`since` keeps `updated_at` strictly after it, and timestamps are whole seconds),
 * skipping what is older than `after` and the versions already seen (by id and fingerprint). The last
 * receipt carries the checkpoint that moves `after` to the newest `updated_at` read less the time
 * the pass took: lists are ordered by id, so a receipt changed during the pass on a page already
 * read has an `updated_at` within that span, and the next call reads it.
 *
 * @example
 * ```ts
 * const changes = changesSince((query) => bb.receipts.list(query), systemClock, null);
 * ```
 */
export async function* changesSince(
  listPage: (query: ReceiptListQuery) => Promise<Page<Receipt>>,
  clock: Clock,
  checkpoint: SyncCheckpoint | null,
): AsyncGenerator<ReceiptChange, void, undefined> {
  const after = checkpoint?.after ? Date.parse(checkpoint.after) : -Infinity;
  if (checkpoint && (Number.isNaN(after) || !Array.isArray(checkpoint.seen))) {
    throw new TypeError('[@boundbook/sdk] not a checkpoint of changesSince(): store them unchanged, or pass null to start over');
  }
  const seen: Seen[] = [...(checkpoint?.seen ?? [])];
  const known = new Set(seen.map(seenKey));
  const query: ReceiptListQuery = { per_page: MAX_PER_PAGE, ...(after > -Infinity && { since: formatSeconds(after - 1000) }) };
  const started = clock.now();
  let newest = after;
  let held: [Receipt, number] | undefined;
  let complete = false;
  const change = ([receipt, count]: [Receipt, number], floor: number): ReceiptChange => ({
    receipt,
    get checkpoint() {
      return {
        after: floor > -Infinity ? formatSeconds(floor) : null,
        seen: seen.slice(0, count).filter((entry) => Date.parse(entry[1]) >= floor),
      };
    },
  });

  for (let pass = 0; pass < MAX_PASSES && !complete; pass++) {
    let total: number | undefined;
    for (let number = 1; !complete; number++) {
      const page = await listPage({ ...query, page: number });
      total ??= page.meta.total;
      if (page.meta.total < total) break;
      for (const receipt of page.data) {
        const entry: Seen = [receipt.id, receipt.updated_at, fingerprint(receipt)];
        const at = Date.parse(entry[1]);
        const key = seenKey(entry);
        newest = Math.max(newest, at);
        if (at < after || known.has(key)) continue;
        known.add(key);
        if (held) yield change(held, after);
        held = [receipt, seen.push(entry)];
      }
      complete = page.links.next === null || page.data.length === 0;
    }
  }
  // Only a pass read to its end moves `after`: nothing older than the new `after` is left unread.
  if (held) yield change(held, complete ? Math.max(after, Math.floor((newest - clock.now() + started) / 1000) * 1000) : after);
}

function seenKey([id, , print]: Seen): string {
  return `${id} ${print}`;
}
