import type { FetchFunction } from '@fflkit/sdk';
import { receiptResource } from '@fflkit/test-fixtures';
import type { DispositionCreate, Receipt, ReceiptCreate, WebhookEndpoint, WebhookEndpointCreate } from '@fflkit/types';
import { page } from './page';
import { empty, hang, json } from './stub-fetch';

/**
 * How one request fares: `ok` is answered; `refused` and `502` fail before the service acts;
 * `dropped`, `timeout` and `502-after` fail after it acted (the connection drops, no answer comes
 * before the time-out, a proxy answers 502): the cases where a client cannot know what happened.
 */
export type Fault = 'ok' | 'refused' | '502' | 'dropped' | 'timeout' | '502-after';

/** The faults that come after the service acted. */
export const AFTER_ACTING: readonly Fault[] = ['dropped', 'timeout', '502-after'];

/**
 * The service in memory, behind a `fetch` that fails requests as `faultOf` says. It acts as a
 * naive service would: it never refuses a second receipt with the same fields nor a second
 * disposition of a receipt, so that any duplicate the client causes is counted, not prevented.
 */
export class FaultyService {
  readonly receipts = new Map<number, Receipt>();
  readonly endpoints = new Map<number, WebhookEndpoint>();
  /** The secret of each endpoint, as the service made it. */
  readonly secrets = new Map<number, string>();
  /** How many times each receipt was disposed of. */
  readonly dispositions = new Map<number, number>();
  /** Every request, with the fault it met. */
  readonly requests: Array<{ method: string; path: string; fault: Fault }> = [];
  #lastId = 0;

  /** `faultOf(method, path, index)` decides each request's fate; every request is answered by default. */
  constructor(readonly faultOf: (method: string, path: string, index: number) => Fault = () => 'ok') {}

  /** Adds a receipt as the service would have recorded it earlier. */
  add(body: ReceiptCreate, overrides: Partial<Receipt> = {}): Receipt {
    return this.#record(body, overrides);
  }

  /** Adds an endpoint made earlier, whose secret its owner holds. */
  addEndpoint(body: WebhookEndpointCreate): WebhookEndpoint {
    return this.#endpoint(body);
  }

  /** Receipts with this serial number. */
  withSerial(serial: string): Receipt[] {
    return [...this.receipts.values()].filter((r) => r.serial_number === serial);
  }

  readonly fetch: FetchFunction = async (input, init) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const path = url.pathname.replace('/rest/v1', '');
    const fault = this.faultOf(method, path, this.requests.length);
    this.requests.push({ method, path, fault });
    if (fault === 'refused')
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }),
      });
    if (fault === '502') return json(502, { message: 'Bad Gateway' });
    const answer = this.#handle(
      method,
      path,
      url.searchParams,
      typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    );
    if (fault === 'dropped')
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      });
    if (fault === 'timeout') return hang(new Request(input), init.signal ?? undefined);
    if (fault === '502-after') return json(502, { message: 'Bad Gateway' });
    return answer;
  };

  #handle(method: string, path: string, query: URLSearchParams, body: unknown): Response {
    const [, collection, id, action] = path.split('/');
    const receipt = this.receipts.get(Number(id));
    if (collection === 'receipts' && id === undefined && method === 'GET') {
      const serial = query.get('serial_number')?.toLowerCase() ?? '';
      const matches = [...this.receipts.values()]
        .filter(
          (r) =>
            r.serial_number.toLowerCase().includes(serial) &&
            (query.get('book') === null || r.book === query.get('book')),
        )
        .sort((a, b) => a.id - b.id);
      return json(200, page(matches, Number(query.get('page') ?? 1), Number(query.get('per_page') ?? 25)));
    }
    if (collection === 'receipts' && id === undefined && method === 'POST')
      return json(201, { data: this.#record(body as ReceiptCreate) });
    if (collection === 'receipts' && receipt === undefined) return json(404, { message: 'Record not found.' });
    if (collection === 'receipts' && receipt && method === 'GET') return json(200, { data: receipt });
    if (collection === 'receipts' && receipt && method === 'DELETE') {
      this.receipts.delete(receipt.id);
      return empty(204);
    }
    if (collection === 'receipts' && receipt && action === 'dispose') {
      const fields = body as DispositionCreate;
      const disposed: Receipt = {
        ...receipt,
        status: 'disposed',
        disposition: {
          disposition_date: fields.disposition_date,
          disposed_to: fields.disposed_to,
          address: fields.address ?? null,
          city: fields.city ?? null,
          state: fields.state ?? null,
          zip: fields.zip ?? null,
          sold_price: fields.sold_price ?? null,
          nics_ccw: fields.nics_ccw ?? null,
          form_4473_serial: fields.form_4473_serial ?? null,
          created_at: '2025-04-02T10:00:00Z',
        },
      };
      this.receipts.set(receipt.id, disposed);
      this.dispositions.set(receipt.id, (this.dispositions.get(receipt.id) ?? 0) + 1);
      return json(200, { data: disposed });
    }
    if (collection === 'webhooks' && method === 'GET') return json(200, { data: [...this.endpoints.values()] });
    if (collection === 'webhooks' && method === 'POST') {
      const endpoint = this.#endpoint(body as WebhookEndpointCreate);
      return json(201, { data: endpoint, secret: this.secrets.get(endpoint.id) });
    }
    if (collection === 'webhooks' && method === 'DELETE') {
      if (!this.endpoints.delete(Number(id))) return json(404, { message: 'Record not found.' });
      return empty(204);
    }
    return json(404, { message: 'The route could not be found.' });
  }

  #record(body: ReceiptCreate, overrides: Partial<Receipt> = {}): Receipt {
    const id = ++this.#lastId;
    const created = receiptResource({
      id,
      record: id,
      importer: null,
      country_of_origin: null,
      purchase_amount: null,
      ffl_license: null,
      ...Object.fromEntries(
        Object.entries(body).map(([field, value]) => [field, typeof value === 'string' ? value.trim() : value]),
      ),
      ...overrides,
    });
    this.receipts.set(id, created);
    return created;
  }

  #endpoint(body: WebhookEndpointCreate): WebhookEndpoint {
    const id = ++this.#lastId;
    const endpoint: WebhookEndpoint = {
      id,
      url: body.url,
      events: body.events,
      enabled: true,
      created_at: '2025-03-14T15:04:05Z',
      updated_at: '2025-03-14T15:04:05Z',
    };
    this.endpoints.set(id, endpoint);
    this.secrets.set(id, `whsec_${id}`);
    return endpoint;
  }
}
