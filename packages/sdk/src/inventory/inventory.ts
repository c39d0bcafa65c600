import type { InventoryQuery, Page, Receipt } from '@boundbook/types';
import { dataOrThrow } from '../client/data-or-throw';
import type { RawClient } from '../client/raw-client';
import { requestInit, type RequestOptions } from '../client/request-options';
import { assertPageParams } from '../pagination/assert-page-params';
import { Paginator } from '../pagination/paginator';

/**
 * The on-hand inventory: `bb.inventory`.
 *
 * @example
 * ```ts
 * const { meta } = await bb.inventory.list({ book: 'Main', per_page: 1 });
 * console.log(`${meta.total} firearms on hand`);
 * ```
 */
export class Inventory {
  readonly #raw: RawClient;

  constructor(raw: RawClient) {
    this.#raw = raw;
  }

  /**
   * One page of on-hand receipts, ordered by id.
   *
   * @example
   * ```ts
   * const { data } = await bb.inventory.list({ per_page: 50 });
   * ```
   */
  async list(params: InventoryQuery = {}, options?: RequestOptions): Promise<Page<Receipt>> {
    assertPageParams(params);
    return dataOrThrow(await this.#raw.GET('/inventory', { params: { query: params }, ...requestInit(options) }));
  }

  /**
   * Every on-hand receipt, across pages.
   *
   * @example
   * ```ts
   * for await (const receipt of bb.inventory.iterate({ per_page: 200 })) count(receipt.type);
   * ```
   */
  iterate(params: Omit<InventoryQuery, 'page'> = {}, options?: RequestOptions): Paginator<Receipt> {
    assertPageParams(params);
    return new Paginator((page) => this.list({ ...params, page }, options));
  }
}
