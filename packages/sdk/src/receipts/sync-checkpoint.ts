/**
 * Where an incremental sync stands, as `receipts.changesSince()` yields it: plain JSON, to store
 * as it is and pass back unchanged.
 *
 * @example
 * ```ts
 * await db.saveCheckpoint(JSON.stringify(change.checkpoint));
 * const checkpoint: SyncCheckpoint | null = JSON.parse((await db.loadCheckpoint()) ?? 'null');
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
 * A moment as the API writes it: RFC 3339 in UTC, whole seconds.
 *
 * @example
 * ```ts
 * formatSeconds(Date.UTC(2025, 2, 14, 15, 4, 5, 678)); // '2025-03-14T15:04:05Z'
 * ```
 */
export function formatSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * A short hash (32-bit FNV-1a, base 36) of a receipt's JSON: which version of it was yielded.
 *
 * @example
 * ```ts
 * fingerprint(receipt); // '1x3k9q'
 * ```
 */
export function fingerprint(value: unknown): string {
  const text = JSON.stringify(value);
  let hash = 2_166_136_261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16_777_619);
  return (hash >>> 0).toString(36);
}
