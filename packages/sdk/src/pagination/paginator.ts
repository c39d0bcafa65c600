import type { Page } from '@boundbook/types';

/**
 * Every item of a paginated list, page after page (`per_page` of them per request): iterate it
 * for the items, or call {@link Paginator.pages | pages()} for the pages with their `meta`.
 * Pages are read as the loop asks for them; breaking out of the loop stops the requests.
 *
 * @example
 * ```ts
 * for await (const receipt of bb.receipts.iterate({ status: 'on_hand', per_page: 200 })) {
 *   console.log(receipt.serial_number);
 * }
 * for await (const page of bb.inventory.iterate().pages()) console.log(page.meta.current_page, page.data.length);
 * ```
 */
export class Paginator<T> implements AsyncIterable<T> {
  readonly #fetchPage: (page: number) => Promise<Page<T>>;

  constructor(fetchPage: (page: number) => Promise<Page<T>>) {
    this.#fetchPage = fetchPage;
  }

  /** The pages themselves, from page 1 to the last. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    for (let number = 1; ; number++) {
      const page = await this.#fetchPage(number);
      yield page;
      if (page.links.next === null || page.data.length === 0) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}
