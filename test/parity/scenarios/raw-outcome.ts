/**
 * What a call of `logbook.raw` (openapi-fetch) gave, without its `Response`, whose status and body the
 * transcript already holds as the exchange.
 *
 * @example
 * ```ts
 * await context.attempt('raw GET /books', () => logbook.raw.GET('/books').then(rawOutcome));
 * ```
 */
export function rawOutcome(result: { data?: unknown; error?: unknown }): unknown {
  return { data: result.data, error: result.error };
}
