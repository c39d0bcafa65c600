import type { Book } from '@boundbook/types';
import { dataOrThrow } from '../client/data-or-throw';
import type { RawClient } from '../client/raw-client';
import { requestInit, type RequestOptions } from '../client/request-options';

/**
 * Logbooks: `bb.books`.
 *
 * @example
 * ```ts
 * const names = (await bb.books.list()).map((book) => book.name); // ['Main', ...]
 * ```
 */
export class Books {
  readonly #raw: RawClient;

  constructor(raw: RawClient) {
    this.#raw = raw;
  }

  /**
   * Every logbook of the account with its counts (unpaginated).
   *
   * @example
   * ```ts
   * const [main] = await bb.books.list();
   * console.log(main?.on_hand_count);
   * ```
   */
  async list(options?: RequestOptions): Promise<Book[]> {
    return dataOrThrow(await this.#raw.GET('/books', requestInit(options))).data;
  }
}
