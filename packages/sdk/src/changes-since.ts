// Incremental sync, `logbook.receipts.changesSince()`: every receipt created or changed since a stored
// checkpoint, each once. The README's "Incremental sync" explains why nothing is missed.
import { MAX_PER_PAGE, type Page, type Receipt, type ReceiptListQuery } from '@fflkit/types';
import { Paginator } from './pagination';
import type { Clock } from './transport';

/**
 * Where an incremental sync stands, as `receipts.changesSince()` yields it: plain JSON, to store
 * as it is and pass back unchanged.
 *
 * @example
 * ```ts
 * import type { SyncCheckpoint } from '@fflkit/sdk';
 *
 * const stored: string | null = localStorage.getItem('logbook-checkpoint');
 * const checkpoint: SyncCheckpoint | null = JSON.parse(stored ?? 'null'); // { after: '2025-03-14T15:04:05Z', seen: [[1042, '2025-03-14T15:04:05Z', '1x3k9q']] }
 * ```
 */
export interface SyncCheckpoint {
  /**
   * Every change with an `updated_at` before this moment has been yielded (RFC 3339, whole
   * seconds); `null` until a first pass has been read to its end.
   */
  readonly after: string | null;
  /**
   * The receipts at or after `after` already yielded, as `[id, updated_at, fingerprint]`: skipped
   * when read again unchanged. The fingerprint (a hash of the receipt's JSON) tells apart two
   * versions of a receipt changed twice within one second, which share an `updated_at`.
   */
  readonly seen: ReadonlyArray<readonly [id: number, updatedAt: string, fingerprint: string]>;
}

/**
 * One receipt of an incremental sync and the checkpoint to store once it is handled.
 *
 * @example
 * ```ts
 * import { LogbookClient, type ReceiptChange } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * for await (const change of logbook.receipts.changesSince(null)) {
 *   const { receipt, checkpoint }: ReceiptChange = change;
 *   console.log(receipt.id, checkpoint.after); // 1042 null, ..., 1187 '2025-03-14T15:04:05Z'
 * }
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
 * The generator behind `receipts.changesSince()`.
 *
 * A pass pages through `GET /receipts?since=` to its end before `after` moves, from one second
 * before `after` (`since` keeps `updated_at` strictly after it, and timestamps are whole seconds),
 * skipping what is older than `after` and the versions already seen (by id and fingerprint). The last
 * receipt carries the checkpoint that moves `after` to the newest `updated_at` read less the time
 * the pass took: lists are ordered by id, so a receipt changed during the pass on a page already
 * read has an `updated_at` within that span, and the next call reads it.
 */
export async function* changesSince(
  listPage: (query: ReceiptListQuery) => Promise<Page<Receipt>>,
  clock: Clock,
  checkpoint: SyncCheckpoint | null,
): AsyncGenerator<ReceiptChange, void, undefined> {
  const after = checkpoint?.after ? Date.parse(checkpoint.after) : -Infinity;
  if (checkpoint && (Number.isNaN(after) || !Array.isArray(checkpoint.seen))) {
    throw new TypeError(
      '[@fflkit/sdk] not a checkpoint of changesSince(): store them unchanged, or pass null to start over',
    );
  }
  const seen: Seen[] = [...(checkpoint?.seen ?? [])];
  // A version already yielded, by its entry: the fingerprint tells apart versions within one second.
  const known = new Set(seen.map(String));
  const query: ReceiptListQuery = {
    per_page: MAX_PER_PAGE,
    ...(after > -Infinity && { since: formatSeconds(after - 1000) }),
  };
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
    // A pass is complete unless the list shrinks under it.
    complete = true;
    for await (const page of new Paginator((number) => listPage({ ...query, page: number })).pages()) {
      total ??= page.meta.total;
      if (page.meta.total < total) {
        complete = false;
        break;
      }
      for (const receipt of page.data) {
        const entry: Seen = [receipt.id, receipt.updated_at, fingerprint(receipt)];
        const at = Date.parse(entry[1]);
        const key = String(entry);
        newest = Math.max(newest, at);
        if (at < after || known.has(key)) continue;
        known.add(key);
        if (held) yield change(held, after);
        held = [receipt, seen.push(entry)];
      }
    }
  }
  // Only a pass read to its end moves `after`: nothing older than the new `after` is left unread.
  if (held)
    yield change(held, complete ? Math.max(after, Math.floor((newest - clock.now() + started) / 1000) * 1000) : after);
}

// A moment as the API writes it: RFC 3339 in UTC, whole seconds.
function formatSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

// A short hash (32-bit FNV-1a, base 36) of a receipt's JSON: which version of it was yielded.
function fingerprint(value: unknown): string {
  const text = JSON.stringify(value);
  let hash = 2_166_136_261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16_777_619);
  return (hash >>> 0).toString(36);
}
