// Paginated lists: the checks of `page` and `per_page`, and the paginator that reads page after page.
import { MAX_PER_PAGE, type Page } from '@fflkit/types';
import { assertRange } from './errors';

/**
 * Every item of a paginated list, page after page (`per_page` of them per request): iterate it
 * for the items, or call {@link Paginator.pages | pages()} for the pages with their `meta`.
 * Pages are read as the loop asks for them; breaking out of the loop stops the requests.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * for await (const receipt of logbook.receipts.iterate({ status: 'on_hand', per_page: 200 })) {
 *   console.log(receipt.serial_number); // 'EXA0012345', ...
 * }
 * for await (const page of logbook.inventory.iterate().pages()) {
 *   console.log(page.meta.current_page, page.data.length); // 1 25, 2 25, ..., 7 3
 * }
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

/**
 * Checks `page` and `per_page` before anything is sent: the service answers 422 outside 1 to 200
 * (it never clamps), so the SDK throws a `RangeError` instead; `iterate()` reads every page.
 */
export function assertPageParams(params: { page?: number | undefined; per_page?: number | undefined }): void {
  if (params.per_page !== undefined) assertRange('per_page', params.per_page, 1, MAX_PER_PAGE, true);
  if (params.page !== undefined) assertRange('page', params.page, 1, Infinity, true);
}
