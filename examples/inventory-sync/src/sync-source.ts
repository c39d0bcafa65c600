import type { Receipts } from '@boundbook/sdk';

/**
 * The part of the SDK's `bb.receipts` a sync uses. A `BoundBook`'s `receipts` is one; a test can
 * wrap it, for instance to interrupt a sync half-way.
 *
 * @example
 * ```ts
 * const source: SyncSource = new BoundBook({ token, baseUrl }).receipts;
 * ```
 */
export type SyncSource = Pick<Receipts, 'changesSince' | 'list' | 'iterate' | 'get'>;
