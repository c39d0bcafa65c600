// The resources of a client (`logbook.receipts`, `logbook.books`, `logbook.inventory`, `logbook.search`,
// `logbook.webhooks`): one method per operation, each unwrapping the answer or throwing its ApiError;
// a create or a disposition with the look-up that recovers it (see `recovery.ts`).
import type {
  Book,
  DispositionCreate,
  InventoryQuery,
  Page,
  Receipt,
  ReceiptCreate,
  ReceiptListQuery,
  ReceiptUpdate,
  SearchQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
} from '@fflkit/types';
import { changesSince, type ReceiptChange, type SyncCheckpoint } from './changes-since';
import { createApiError } from './errors';
import { assertPageParams, Paginator } from './pagination';
import type { Call, CallInit } from './raw-client';
import { findCreated, findDisposed, nothingSent, removeUnseen } from './recovery';
import type { Clock, Recover } from './transport';

/** What the resources of a client share: its request function, its clock, and whether it recovers. */
interface ResourceContext {
  readonly call: Call;
  readonly clock: Clock;
  readonly recover: boolean;
}

/**
 * Options of one call, the last argument of every method.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const receipt = await logbook.receipts.get(1042, { signal: AbortSignal.timeout(5000) }); // the receipt, or the signal's reason after 5 s
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, including its waits for retries and for the rate limiter. */
  signal?: AbortSignal | undefined;
}

/**
 * `T` whose optional properties also take an explicit `undefined`, meaning "not given": the
 * parameters of the list methods, so that `{ per_page: perPage }` with `perPage: number | undefined`
 * compiles under `exactOptionalPropertyTypes`.
 *
 * @example
 * ```ts
 * import type { AllowUndefined, ReceiptListQuery } from '@fflkit/sdk';
 *
 * const perPage = Number(process.env['PAGE_SIZE']) || undefined;
 * const params: AllowUndefined<ReceiptListQuery> = { status: 'on_hand', per_page: perPage }; // per_page: number | undefined
 * ```
 */
// biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<T, K>` is how an optional key is told apart
export type AllowUndefined<T> = { [K in keyof T]: {} extends Pick<T, K> ? T[K] | undefined : T[K] };

/**
 * Receipts (acquisition records): `logbook.receipts`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const receipt = await logbook.receipts.create({
 *   book: 'Main', serial_number: 'EXA0012345', manufacturer: 'Example Arms Co.', model: 'EX-9',
 *   type: 'Pistol', caliber: '9mm Luger', receipt_date: '2025-03-14',
 *   received_from: 'Example Firearms Wholesale LLC', ffl_license: '9-99-999-01-6A-00001',
 * }); // { id: 1042, record: 318, status: 'on_hand', ... }
 * const disposed = await logbook.receipts.dispose(receipt.id, {
 *   disposition_date: '2025-04-02', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123',
 * }); // { id: 1042, status: 'disposed', disposition: { disposed_to: 'John Q. Example', ... }, ... }
 * ```
 */
export class Receipts {
  readonly #context: ResourceContext;

  /** Made by `new LogbookClient()`, as `logbook.receipts`. @internal */
  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * One page of receipts, ordered by id: `{ data, links, meta }`. `per_page` is 1 to 200
   * (default 25); another value is a `RangeError` before anything is sent.
   *
   * @example
   * ```ts
   * import { LogbookClient } from '@fflkit/sdk';
   *
   * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
   * const { data, meta } = await logbook.receipts.list({ status: 'on_hand', page: 2, per_page: 100 });
   * console.log(data.length, meta.total); // 100 318
   * ```
   */
  async list(params: AllowUndefined<ReceiptListQuery> = {}, options?: RequestOptions): Promise<Page<Receipt>> {
    return list(this.#context, '/receipts', params, options);
  }

  /** Every receipt that matches, across pages; `.pages()` gives the pages instead (see {@link Paginator}). */
  iterate(params: AllowUndefined<Omit<ReceiptListQuery, 'page'>> = {}, options?: RequestOptions): Paginator<Receipt> {
    return iterate((page) => this.list({ ...params, page }, options), params);
  }

  /** One receipt with its disposition, documents and E4473 data. */
  async get(id: number, options?: RequestOptions): Promise<Receipt> {
    return (
      await request<{ data: Receipt }>(this.#context, 'GET', '/receipts/{id}', { params: { path: { id } }, ...options })
    ).data;
  }

  /**
   * Records an acquisition and returns the new receipt (status `on_hand`, next record number).
   * After a failure after which the service may have recorded it, the book is searched for it
   * (by serial number) before it is sent again, so a lost answer never makes a second entry; see
   * the README, "Recovery".
   */
  async create(body: ReceiptCreate, options?: RequestOptions): Promise<Receipt> {
    const recover = findCreated(body, () =>
      this.iterate({ serial_number: body.serial_number.trim(), book: body.book.trim(), per_page: 200 }, options),
    );
    return (await request<{ data: Receipt }>(this.#context, 'POST', '/receipts', { body, ...options }, recover)).data;
  }

  /**
   * Corrects a receipt (every field optional; `book` cannot change) and returns it.
   *
   * @example
   * ```ts
   * import { LogbookClient } from '@fflkit/sdk';
   *
   * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
   * const receipt = await logbook.receipts.update(1042, { model: 'EX-9 Compact OR' });
   * console.log(receipt.model); // 'EX-9 Compact OR'
   * ```
   */
  async update(id: number, body: ReceiptUpdate, options?: RequestOptions): Promise<Receipt> {
    return (
      await request<{ data: Receipt }>(this.#context, 'PUT', '/receipts/{id}', {
        params: { path: { id } },
        body,
        ...options,
      })
    ).data;
  }

  /**
   * Records the disposition (sale or transfer) of a receipt and returns the disposed receipt.
   * After a failure after which the service may have recorded it, the receipt is read before the
   * disposition is sent again: disposed as sent, it is returned.
   */
  async dispose(id: number, body: DispositionCreate, options?: RequestOptions): Promise<Receipt> {
    const recover = findDisposed(id, body, () => this.get(id, options));
    return (
      await request<{ data: Receipt }>(
        this.#context,
        'POST',
        '/receipts/{id}/dispose',
        { params: { path: { id } }, body, ...options },
        recover,
      )
    ).data;
  }

  /**
   * Soft-deletes a receipt: it is 404 from then on, and left out of every list. A 404 to a retry
   * after a failure after which the service may have acted counts as done.
   */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await request(this.#context, 'DELETE', '/receipts/{id}', { params: { path: { id } }, ...options });
  }

  /**
   * Incremental sync: every receipt created or changed since `checkpoint` (everything when it is
   * `null`), each with the checkpoint to store once it is handled. See the README, "Incremental
   * sync", for why nothing is missed or yielded twice.
   *
   * @example
   * ```ts
   * import { LogbookClient, type SyncCheckpoint } from '@fflkit/sdk';
   *
   * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
   * let checkpoint: SyncCheckpoint | null = JSON.parse(localStorage.getItem('logbook-checkpoint') ?? 'null');
   * for await (const change of logbook.receipts.changesSince(checkpoint)) {
   *   console.log(change.receipt.id, change.receipt.updated_at); // 1042 '2025-03-14T15:04:05Z', ...
   *   localStorage.setItem('logbook-checkpoint', JSON.stringify((checkpoint = change.checkpoint)));
   * }
   * ```
   */
  changesSince(
    checkpoint?: SyncCheckpoint | null,
    options?: RequestOptions,
  ): AsyncGenerator<ReceiptChange, void, undefined> {
    return changesSince((query) => this.list(query, options), this.#context.clock, checkpoint ?? null);
  }
}

/**
 * Logbooks: `logbook.books`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const names = (await logbook.books.list()).map((book) => book.name); // ['Main', ...]
 * ```
 */
export class Books {
  readonly #context: ResourceContext;

  /** Made by `new LogbookClient()`. @internal */
  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** Every logbook of the account with its counts (unpaginated). */
  async list(options?: RequestOptions): Promise<Book[]> {
    return (await request<{ data: Book[] }>(this.#context, 'GET', '/books', options)).data;
  }
}

/**
 * The on-hand inventory: `logbook.inventory`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const { meta } = await logbook.inventory.list({ book: 'Main', per_page: 1 });
 * console.log(`${meta.total} firearms on hand`); // '212 firearms on hand'
 * ```
 */
export class Inventory {
  readonly #context: ResourceContext;

  /** Made by `new LogbookClient()`. @internal */
  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** One page of on-hand receipts, ordered by id. */
  async list(params: AllowUndefined<InventoryQuery> = {}, options?: RequestOptions): Promise<Page<Receipt>> {
    return list(this.#context, '/inventory', params, options);
  }

  /** Every on-hand receipt, across pages. */
  iterate(params: AllowUndefined<Omit<InventoryQuery, 'page'>> = {}, options?: RequestOptions): Paginator<Receipt> {
    return iterate((page) => this.list({ ...params, page }, options), params);
  }
}

/**
 * Search of receipts (every status): `logbook.search`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const { data } = await logbook.search.list({ q: 'glock', field: 'manufacturer', per_page: 100 });
 * console.log(data.map((receipt) => receipt.serial_number)); // ['GLK0001', 'GLK0002']
 * ```
 */
export class Search {
  readonly #context: ResourceContext;

  /** Made by `new LogbookClient()`. @internal */
  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * One page of receipts where `q` is a case-insensitive substring of `field` (of any of the
   * seven searchable fields when `field` is absent).
   */
  async list(params: AllowUndefined<SearchQuery>, options?: RequestOptions): Promise<Page<Receipt>> {
    return list(this.#context, '/search', params, options);
  }

  /** Every match, across pages. */
  iterate(params: AllowUndefined<Omit<SearchQuery, 'page'>>, options?: RequestOptions): Paginator<Receipt> {
    return iterate((page) => this.list({ ...params, page }, options), params);
  }
}

/**
 * A webhook endpoint just created, with its signing secret: the only time the secret is shown.
 *
 * @example
 * ```ts
 * import { LogbookClient, type CreatedWebhook } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const { endpoint, secret }: CreatedWebhook = await logbook.webhooks.create({ url: 'https://pos.example.com/hooks', events: ['*'] });
 * console.log(endpoint.id, secret); // 7 'whsec_...'
 * ```
 */
export interface CreatedWebhook {
  endpoint: WebhookEndpoint;
  /** `whsec_...`: keep it to verify `X-SVC-Signature`; it is never shown again. */
  secret: string;
}

/**
 * Webhook endpoints: `logbook.webhooks`.
 *
 * @example
 * ```ts
 * import { LogbookClient } from '@fflkit/sdk';
 *
 * const logbook = new LogbookClient(); // the token and base URL from FFLKIT_TOKEN and FFLKIT_BASE_URL
 * const disabled = (await logbook.webhooks.list()).filter((endpoint) => !endpoint.enabled); // [{ id: 7, enabled: false, ... }]
 * ```
 */
export class Webhooks {
  readonly #context: ResourceContext;

  /** Made by `new LogbookClient()`. @internal */
  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** The account's endpoints (without secrets). */
  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (await request<{ data: WebhookEndpoint[] }>(this.#context, 'GET', '/webhooks', options)).data;
  }

  /**
   * Adds an endpoint for the named events (`['*']` for all) and returns it with its secret. With
   * recovery on, the endpoints are listed first; after a failure after which the service may
   * have made the endpoint, one it made (with this URL and these events, not listed before) is
   * deleted before the creation is sent again, so no endpoint is left whose secret was never seen.
   */
  async create(body: WebhookEndpointCreate, options?: RequestOptions): Promise<CreatedWebhook> {
    const before = this.#context.recover ? await this.list(options).catch(nothingSent('POST /webhooks')) : [];
    const recover = removeUnseen(
      body,
      before,
      () => this.list(options),
      (id) => this.delete(id, options),
    );
    const created = await request<{ data: WebhookEndpoint; secret: string }>(
      this.#context,
      'POST',
      '/webhooks',
      { body, ...options },
      recover,
    );
    return { endpoint: created.data, secret: created.secret };
  }

  /**
   * Removes an endpoint: the service sends it nothing more. A 404 to a retry after a failure
   * after which the service may have acted counts as done.
   */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await request(this.#context, 'DELETE', '/webhooks/{id}', { params: { path: { id } }, ...options });
  }
}

// The paths of the paginated lists, and what their parameters share.
type ListPath = '/receipts' | '/inventory' | '/search';
type PageParams = { page?: number | undefined; per_page?: number | undefined };

// The parsed body of a successful call (`undefined` for a 204); any other answer is thrown as its
// ApiError. A POST that recovers carries its look-up, unless the client turned recovery off.
async function request<T>(
  context: ResourceContext,
  method: string,
  path: string,
  init?: CallInit,
  recover?: Recover,
): Promise<T> {
  const { data, error, response } = await context.call(method, path, init, context.recover ? recover : undefined);
  if (!response.ok) throw createApiError(response, error, context.clock.now());
  return data as T;
}

// One page of a paginated list, after checking `page` and `per_page`; a parameter given as
// `undefined` is left out of the query string.
function list(
  context: ResourceContext,
  path: ListPath,
  params: PageParams,
  options: RequestOptions | undefined,
): Promise<Page<Receipt>> {
  assertPageParams(params);
  return request(context, 'GET', path, { params: { query: params }, ...options });
}

// Every item of a paginated list, page after page, after checking `per_page` now.
function iterate(listPage: (page: number) => Promise<Page<Receipt>>, params: PageParams): Paginator<Receipt> {
  assertPageParams(params);
  return new Paginator(listPage);
}
