import type { Page } from '@fflkit/types';

/** Page `number` of `items` split into pages of `perPage`, in the service's envelope. */
export function page<T>(
  items: T[],
  number: number,
  perPage: number,
  path = 'https://example.test/rest/v1/receipts',
): Page<T> {
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const data = items.slice((number - 1) * perPage, number * perPage);
  const link = (n: number) => `${path}?page=${n}`;
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: number > 1 ? link(number - 1) : null,
      next: number < lastPage ? link(number + 1) : null,
    },
    meta: {
      current_page: number,
      from: data.length ? (number - 1) * perPage + 1 : null,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: data.length ? (number - 1) * perPage + data.length : null,
      total: items.length,
    },
  };
}
