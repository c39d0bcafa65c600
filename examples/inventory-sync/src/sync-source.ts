import type { Receipts } from '@fflkit/sdk';

/**
 * The part of the SDK's `logbook.receipts` a sync uses. A `LogbookClient`'s `receipts` is one; a test can
 * wrap it, for instance to interrupt a sync half-way.
 *
 * @example
 * ```ts
 * const source: SyncSource = new LogbookClient({ token, baseUrl }).receipts;
 * ```
 */
export type SyncSource = Pick<Receipts, 'changesSince' | 'list' | 'iterate' | 'get'>;
