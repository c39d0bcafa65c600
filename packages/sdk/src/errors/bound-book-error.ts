/**
 * Base class of every error the SDK throws on purpose: API answers, connection failures and
 * time-outs. Misuse (a bad option, `per_page` out of range) throws `TypeError` or `RangeError`.
 *
 * @example
 * ```ts
 * try {
 *   await bb.receipts.get(42);
 * } catch (error) {
 *   if (error instanceof BoundBookError) console.error(error.name, error.message);
 * }
 * ```
 */
export class BoundBookError extends Error {
  override name = 'BoundBookError';
}
