import type { Page } from '@boundbook/types';
import { requestOrigin } from '../http/request-origin';
import type { SandboxRequest } from '../sandbox-core-types';
import type { PageParams } from './page-params';
import { pageUrl } from './page-url';

/**
 * One page of a list in Laravel's envelope: `data`, `links` (absolute URLs that keep the
 * request's other query parameters) and `meta`. Only the page's items are copied, so an
 * unfiltered page costs the same at any list size.
 *
 * @example
 * ```ts
 * paginate(account.index.all, { page: 1, perPage: 25 }, request);
 * ```
 */
export function paginate<Item>(
  items: readonly Item[],
  { page, perPage }: PageParams,
  request: Pick<SandboxRequest, 'path' | 'query' | 'headers'>,
): Page<Item> {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const data = items.slice(start, start + perPage);
  const path = `${requestOrigin(request.headers)}${request.path}`;
  const link = (target: number): string => pageUrl(path, request.query, target);
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length === 0 ? null : start + 1,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length === 0 ? null : start + data.length,
      total,
    },
  };
}
