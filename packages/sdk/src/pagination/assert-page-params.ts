import { MAX_PER_PAGE } from '@boundbook/types';
import { assertRange } from '../client/assert-range';

/**
 * Checks `page` and `per_page` before anything is sent: the service answers 422 outside 1 to 200
 * (it never clamps), so the SDK throws a `RangeError` instead; `iterate()` reads every page.
 *
 * @example
 * ```ts
 * assertPageParams({ per_page: 500 }); // RangeError: [@boundbook/sdk] per_page must be a whole number from 1 to 200, not 500
 * ```
 */
export function assertPageParams(params: { page?: number; per_page?: number }): void {
  if (params.per_page !== undefined) assertRange('per_page', params.per_page, 1, MAX_PER_PAGE, true);
  if (params.page !== undefined) assertRange('page', params.page, 1, Infinity, true);
}
