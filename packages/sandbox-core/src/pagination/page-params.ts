import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '@boundbook/types';
import type { QueryReader } from '../query/query-reader';

/** The page a list request asks for. */
export interface PageParams {
  page: number;
  perPage: number;
}

/**
 * Reads `page` (1-based, default 1) and `per_page` (1 to 200, default 25); a value out of range
 * is a 422 message, never clamped.
 *
 * @example
 * ```ts
 * const { page, perPage } = readPageParams(reader);
 * ```
 */
export function readPageParams(reader: QueryReader): PageParams {
  const page = reader.integer('page', 1, Number.MAX_SAFE_INTEGER) ?? 1;
  const perPage = reader.integer('per_page', 1, MAX_PER_PAGE) ?? DEFAULT_PER_PAGE;
  return { page, perPage };
}
