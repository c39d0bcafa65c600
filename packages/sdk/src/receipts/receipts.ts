import type { DispositionCreate, Page, Receipt, ReceiptCreate, ReceiptListQuery, ReceiptUpdate } from '@boundbook/types';
import { dataOrThrow } from '../client/data-or-throw';
import type { RawClient } from '../client/raw-client';
import { requestInit, type RequestOptions } from '../client/request-options';
import { assertPageParams } from '../pagination/assert-page-params';
import { Paginator } from '../pagination/paginator';
import type { Clock } from '../transport/clock';
import { changesSince, type ReceiptChange } from './changes-since';
import type { SyncCheckpoint } from './sync-checkpoint';

/**
 * Receipts (acquisition records): `bb.receipts`.
 *
 * @example
 * ```ts
 * const receipt = await bb.receipts.create({ book: 'Main', serial_number: 'EXA0012345', ... });
 * await bb.receipts.dispose(receipt.id, { disposition_date: '2025-04-02', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123' });
 * ```
 */
export class Receipts {
  readonly #raw: RawClient;
  readonly #clock: Clock;

  constructor(raw: RawClient, clock: Clock) {
    this.#raw = raw;
    this.#clock = clock;
  }

  /**
   * One page of receipts, ordered by id: `{ data, links, meta }`. `per_page` is 1 to 200
   * (default 25); another value is a `RangeError` before anything is sent.
   *
   * @example
   * ```ts
   * const { data, meta } = await bb.receipts.list({ status: 'on_hand', page: 2, per_page: 100 });
   * ```
   */
  async list(params: ReceiptListQuery = {}, options?: RequestOptions): Promise<Page<Receipt>> {
    assertPageParams(params);
    return dataOrThrow(await this.#raw.GET('/receipts', { params: { query: params }, ...requestInit(options) }));
  }

  /**
   * Every receipt that matches, across pages; `.pages()` gives the pages instead.
   *
   * @example
   * ```ts
   * for await (const receipt of bb.receipts.iterate({ book: 'Main', per_page: 200 })) console.log(receipt.record);
   * ```
   */
  iterate(params: Omit<ReceiptListQuery, 'page'> = {}, options?: RequestOptions): Paginator<Receipt> {
    assertPageParams(params);
    return new Paginator((page) => this.list({ ...params, page }, options));
  }

  /**
   * One receipt with its disposition, documents and E4473 data.
   *
   * @example
   * ```ts
   * const receipt = await bb.receipts.get(1042);
   * ```
   */
  async get(id: number, options?: RequestOptions): Promise<Receipt> {
    return dataOrThrow(await this.#raw.GET('/receipts/{id}', { params: { path: { id } }, ...requestInit(options) })).data;
  }

  /**
   * Records an acquisition and returns the new receipt (status `on_hand`, next record number).
   *
   * @example
   * ```ts
   * const receipt = await bb.receipts.create({
   *   book: 'Main', serial_number: 'EXA0012345', manufacturer: 'Example Arms Co.', model: 'EX-9',
   *   type: 'Pistol', caliber: '9mm Luger', receipt_date: '2025-03-14',
   *   received_from: 'Example Firearms Wholesale LLC', ffl_license: '9-99-999-01-6A-00001',
   * });
   * ```
   */
  async create(body: ReceiptCreate, options?: RequestOptions): Promise<Receipt> {
    return dataOrThrow(await this.#raw.POST('/receipts', { body, ...requestInit(options) })).data;
  }

  /**
   * Corrects a receipt (every field optional; `book` cannot change) and returns it.
   *
   * @example
   * ```ts
   * const receipt = await bb.receipts.update(1042, { model: 'EX-9 Compact OR' });
   * ```
   */
  async update(id: number, body: ReceiptUpdate, options?: RequestOptions): Promise<Receipt> {
    return dataOrThrow(await this.#raw.PUT('/receipts/{id}', { params: { path: { id } }, body, ...requestInit(options) })).data;
  }

  /**
   * Records the disposition (sale or transfer) of a receipt and returns the disposed receipt.
   *
   * @example
   * ```ts
   * await bb.receipts.dispose(1042, { disposition_date: '2025-04-02', disposed_to: 'John Q. Example', form_4473_serial: '2025-000123' });
   * ```
   */
  async dispose(id: number, body: DispositionCreate, options?: RequestOptions): Promise<Receipt> {
    return dataOrThrow(await this.#raw.POST('/receipts/{id}/dispose', { params: { path: { id } }, body, ...requestInit(options) })).data;
  }

  /**
   * Soft-deletes a receipt: it is 404 from then on, and left out of every list.
   *
   * @example
   * ```ts
   * await bb.receipts.delete(1043);
   * ```
   */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    dataOrThrow(await this.#raw.DELETE('/receipts/{id}', { params: { path: { id } }, ...requestInit(options) }));
  }

  /**
   * Incremental sync: every receipt created or changed since `checkpoint` (everything when it is
   * `null`), each with the checkpoint to store once it is handled. See the README, "Incremental
   * sync", for why nothing is missed or yielded twice.
   *
   * @example
   * ```ts
   * for await (const { receipt, checkpoint } of bb.receipts.changesSince(await db.loadCheckpoint())) {
   *   await db.upsert(receipt);
   *   await db.saveCheckpoint(checkpoint);
   * }
   * ```
   */
  changesSince(checkpoint?: SyncCheckpoint | null, options?: RequestOptions): AsyncGenerator<ReceiptChange, void, undefined> {
    return changesSince((query) => this.list(query, options), this.#clock, checkpoint ?? null);
  }
}
