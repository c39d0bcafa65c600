import { receiptBody, receiptResource } from '@fflkit/test-fixtures';
import { describe, expect, it } from 'vitest';
import { DeliveryChecker } from '../../src/contract-check/delivery-check';
import { type Exchange, ExchangeChecker } from '../../src/contract-check/exchange-check';

// Single exchanges and deliveries, made by hand, against the rules that no drifting service of
// the other tests happens to break.

const RATE = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' };
const JSON_TYPE = { 'content-type': 'application/json' };
let clock = 0;

function exchange(
  method: string,
  target: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  sent?: unknown,
): Exchange {
  return {
    method,
    target,
    requestHeaders: { authorization: 'Bearer sbx_caller0000000000000001' },
    requestBody: sent === undefined ? undefined : Buffer.from(JSON.stringify(sent)),
    status,
    responseHeaders: { ...JSON_TYPE, ...RATE, ...headers },
    responseBody: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    started: (clock += 1),
    ended: (clock += 1),
  };
}

const places = (findings: ReturnType<ExchangeChecker['check']>) =>
  findings.map(({ method, path, status, pointer, choice }) => `${method} ${path} ${status} ${pointer} ${choice}`);

const page = (size: number, ids: number[]) => ({
  data: ids.map((id) => receiptResource({ id, record: id })),
  links: {
    first: 'http://s/rest/v1/receipts?page=1',
    last: 'http://s/rest/v1/receipts?page=1',
    prev: null,
    next: null,
  },
  meta: {
    current_page: 1,
    from: ids.length ? 1 : null,
    last_page: 1,
    path: 'http://s/rest/v1/receipts',
    per_page: size,
    to: ids.length || null,
    total: ids.length,
  },
});

describe('ExchangeChecker.check()', () => {
  it('takes a request the contract refuses that the service answers 2xx as drift of the rule refusing it', () => {
    const checker = new ExchangeChecker();
    expect(places(checker.check(exchange('GET', '/receipts?per_page=500', 200, page(200, [1]))))).toEqual([
      'GET /receipts 200 /status pagination.per-page',
      'GET /receipts 200 /body/meta/per_page pagination.per-page',
    ]);
    expect(places(checker.check(exchange('GET', '/search', 200, page(25, []))))).toEqual([
      'GET /search 200 /status search.q',
    ]);
  });

  it('takes any 5xx as a break of the contract, and leaves alone an answer a sandbox fault rule injected', () => {
    const checker = new ExchangeChecker();
    expect(places(checker.check(exchange('GET', '/books', 500, { message: 'Server Error' })))).toEqual([
      'GET /books 500 /status errors.no-server-errors',
    ]);
    expect(checker.check(exchange('GET', '/books', 500, { message: 'fault' }, { 'x-sandbox-fault': '1' }))).toEqual([]);
  });

  it('expects a path that names no operation to be a 404 without rate-limit headers', () => {
    const checker = new ExchangeChecker();
    expect(places(checker.check(exchange('GET', '/receipts/abc', 404, { message: 'Record not found.' })))).toEqual([
      'GET /receipts/abc 404 /headers/x-ratelimit-limit routing.unknown-route',
      'GET /receipts/abc 404 /headers/x-ratelimit-remaining routing.unknown-route',
    ]);
    expect(places(checker.check(exchange('PATCH', '/receipts/1', 200, undefined)))).toEqual([
      'PATCH /receipts/1 200 /status routing.unknown-route',
    ]);
  });

  it('holds a page to the order, the filters and the messages the contract chooses', () => {
    const checker = new ExchangeChecker();
    expect(places(checker.check(exchange('GET', '/receipts', 200, page(25, [2, 1]))))).toEqual([
      'GET /receipts 200 /body/data/1/id lists.order',
    ]);
    const disposed = { ...page(25, [1]), data: [receiptResource({ id: 1, status: 'disposed', disposition: null })] };
    expect(places(checker.check(exchange('GET', '/inventory', 200, disposed)))).toEqual([
      'GET /inventory 200 /body/data/0/status inventory.on-hand',
    ]);
    expect(places(checker.check(exchange('GET', '/receipts?since=2030-01-01T00:00:00Z', 200, page(25, [1]))))).toEqual([
      'GET /receipts 200 /body/data/0/updated_at filters.since',
    ]);
    expect(places(checker.check(exchange('GET', '/receipts/9', 404, { message: 'Not here.' })))).toEqual([
      'GET /receipts/{id} 404 /body/message errors.not-found-message',
    ]);
    expect(places(checker.check(exchange('GET', '/books', 401, { message: 'Unauthenticated.' })))).toEqual([
      'GET /books 401 /headers/www-authenticate errors.unauthenticated',
    ]);
  });

  it('reports a deleted receipt that a later read still shows, and a new one a later read shows only late', () => {
    const checker = new ExchangeChecker();
    expect(checker.check(exchange('DELETE', '/receipts/7', 204, undefined))).toEqual([]);
    expect(places(checker.check(exchange('GET', '/receipts/7', 200, { data: receiptResource({ id: 7 }) })))).toEqual([
      'GET /receipts/{id} 200 /status receipts.delete',
    ]);
    expect(
      checker.check(exchange('POST', '/receipts', 201, { data: receiptResource({ id: 8 }) }, {}, receiptBody())),
    ).toEqual([]);
    // Not visible yet: only noted, since a receipt never seen again may have been deleted by another.
    expect(checker.check(exchange('GET', '/receipts', 200, page(25, [1])))).toEqual([]);
    expect(places(checker.check(exchange('GET', '/receipts/8', 200, { data: receiptResource({ id: 8 }) })))).toEqual([
      'GET /receipts 200 /body/data receipts.visible-at-once',
    ]);
  });
});

describe('DeliveryChecker.check()', () => {
  const delivery = (id: string, body: string) => ({
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Logbook-Webhook/1.0',
      'x-svc-event': 'ping',
      'x-svc-delivery': id,
      'x-svc-signature': `sha256=${'0'.repeat(64)}`,
    },
    body: Buffer.from(body),
  });
  const ping = (message: string) =>
    JSON.stringify({ event: 'ping', timestamp: '2025-03-01T10:05:00Z', data: { webhook_id: 7, message } });

  it('expects the same body again under a delivery id seen before', () => {
    const checker = new DeliveryChecker();
    const id = '3b1f6a2e-8c4d-4e5f-9a7b-1c2d3e4f5a6b';
    expect(checker.check(delivery(id, ping('Webhook test ping.')))).toEqual([]);
    expect(checker.check(delivery(id, ping('Webhook test ping.')))).toEqual([]);
    expect(places(checker.check(delivery(id, ping('Another body'))))).toEqual([
      'POST webhook:ping null /body webhooks.delivery-id',
    ]);
  });

  it('holds a ping to its payload, its id to a UUID, and its User-Agent to the service name', () => {
    const checker = new DeliveryChecker();
    const odd = delivery('42', JSON.stringify({ event: 'ping', timestamp: '2025-03-01T10:05:00Z', data: { id: 7 } }));
    odd.headers['user-agent'] = 'FFLKit-Webhook/1.0';
    expect(places(checker.check(odd))).toEqual([
      'POST webhook:ping null /headers/x-svc-delivery webhooks.delivery-id',
      'POST webhook:ping null /headers/user-agent webhooks.user-agent',
      'POST webhook:ping null /body/data/webhook_id webhooks.ping-payload',
      'POST webhook:ping null /body/data/message webhooks.ping-payload',
    ]);
  });
});
