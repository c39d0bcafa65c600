import type { Page, Receipt, SearchQuery } from '@boundbook/types';
import { dataOrThrow } from '../client/data-or-throw';
import type { RawClient } from '../client/raw-client';
import { requestInit, type RequestOptions } from '../client/request-options';
import { assertPageParams } from '../pagination/assert-page-params';
import { Paginator } from '../pagination/paginator';

/**
 * Search of receipts (every status): `bb.search`.
 *
 * @example
 * ```ts
 * const { data } = await bb.search.list({ q: 'EXA00', field: 'serial_number' });
 * ```
 */
export class Search {
  readonly #raw: RawClient;

  constructor(raw: RawClient) {
    this.#raw = raw;
  }

  /**
   * One page of receipts where `q` is a case-insensitive substring of `field` (of any of the
   * seven searchable fields when `field` is absent).
   *
   * @example
   * ```ts
   * const { data, meta } = await bb.search.list({ q: 'glock', field: 'manufacturer', per_page: 100 });
   * ```
   */
  async list(params: SearchQuery, options?: RequestOptions): Promise<Page<Receipt>> {
    assertPageParams(params);
    return dataOrThrow(await this.#raw.GET('/search', { params: { query: params }, ...requestInit(options) }));
  }

  /**
   * Every match, across pages.
   *
   * @example
   * ```ts
   * for await (const receipt of bb.search.iterate({ q: '9mm', field: 'caliber' })) console.log(receipt.id);
   * ```
   */
  iterate(params: Omit<SearchQuery, 'page'>, options?: RequestOptions): Paginator<Receipt> {
    assertPageParams(params);
    return new Paginator((page) => this.list({ ...params, page }, options));
  }
}
