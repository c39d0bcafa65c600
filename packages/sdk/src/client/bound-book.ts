import { RATE_LIMIT_PER_MINUTE, type paths } from '@boundbook/types';
import { Books } from '../books/books';
import { Inventory } from '../inventory/inventory';
import { sharedRateLimiter } from '../rate-limit/shared-rate-limiter';
import { Receipts } from '../receipts/receipts';
import { Search } from '../search/search';
import { systemClock } from '../transport/clock';
import { createTransport } from '../transport/create-transport';
import { PlainRequest } from '../transport/plain-request';
import { Webhooks } from '../webhooks/webhooks';
import { assertRange } from './assert-range';
import type { BoundBookOptions } from './bound-book-options';
import { createClient } from './openapi-fetch-client';
import type { RawClient } from './raw-client';
import { readEnv } from './read-env';
import { SDK_VERSION } from './sdk-version';

/**
 * The client of the Logbook Service. Methods return the resource itself (unwrapped from
 * `{"data": ...}`) and throw an `ApiError` subclass for any other answer.
 *
 * @example
 * ```ts
 * import { BoundBook, NotFoundError } from '@boundbook/sdk';
 *
 * const bb = new BoundBook({ token, baseUrl: 'https://logbook.example.com/rest/v1' });
 * const receipt = await bb.receipts.create({ book: 'Main', ... });
 * for await (const r of bb.receipts.iterate({ status: 'on_hand', per_page: 200 })) console.log(r.serial_number);
 * ```
 */
export class BoundBook {
  /** Receipts: list, iterate, get, create, update, dispose, delete, changesSince. */
  readonly receipts: Receipts;
  /** Logbooks. */
  readonly books: Books;
  /** The on-hand inventory. */
  readonly inventory: Inventory;
  /** Search of receipts. */
  readonly search: Search;
  /** Webhook endpoints. */
  readonly webhooks: Webhooks;
  /** The underlying openapi-fetch client, for anything else; it shares this client's policy. */
  readonly raw: RawClient;

  constructor(options: BoundBookOptions = {}) {
    const token = options.token ?? readEnv('BOUNDBOOK_TOKEN');
    const baseUrl = options.baseUrl ?? readEnv('BOUNDBOOK_BASE_URL');
    if (!token) throw new TypeError('[@boundbook/sdk] no API token: pass { token } or set BOUNDBOOK_TOKEN');
    if (!baseUrl || !/^https?:\/\/./.test(baseUrl)) {
      throw new TypeError(`[@boundbook/sdk] no absolute baseUrl (${baseUrl}): pass { baseUrl } or set BOUNDBOOK_BASE_URL`);
    }
    const { timeout = 30_000, maxRetries = 2, maxRetryAfter = 60, rateLimit = true, clock = systemClock } = options;
    const perMinute = typeof rateLimit === 'object' ? rateLimit.perMinute : RATE_LIMIT_PER_MINUTE;
    assertRange('timeout', timeout, 1);
    assertRange('maxRetries', maxRetries, 0, Infinity, true);
    assertRange('maxRetryAfter', maxRetryAfter, 0);
    assertRange('rateLimit.perMinute', perMinute, 1, 1e6, true);
    const transport = createTransport({
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      clock,
      random: options.random ?? Math.random,
      timeout,
      maxRetries,
      maxRetryAfter,
      limiter: rateLimit ? sharedRateLimiter(token, perMinute, clock) : undefined,
    });
    this.raw = createClient<paths>({
      baseUrl,
      // openapi-fetch builds a PlainRequest and hands it to the transport as it would a Request.
      Request: PlainRequest as unknown as typeof Request,
      fetch: transport as unknown as (request: Request) => Promise<Response>,
      headers: {
        Authorization: `Bearer ${token}`,
        'User-Agent': `${options.userAgent ? `${options.userAgent} ` : ''}boundbook-sdk/${SDK_VERSION}`,
      },
    });
    this.receipts = new Receipts(this.raw, clock);
    this.books = new Books(this.raw);
    this.inventory = new Inventory(this.raw);
    this.search = new Search(this.raw);
    this.webhooks = new Webhooks(this.raw);
  }
}
