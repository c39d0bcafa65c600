import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type DriftProxy, startDriftProxy, startSandbox, type RunningSandbox } from '../../src/index';
import {
  DRIFTS,
  type DriftingUpstream,
  startDriftingUpstream,
  type TappedExchange,
} from '../support/drifting-upstream';
import { type LocalReceiver, startReceiver } from '../support/local-receiver';
import { receiptBody } from '../support/receipt-body';

// The drift proxy in front of a service: a clean sandbox, and the sandbox behind a transform that
// breaks the contract in many ways. Every break is reported once, at its place and with the
// choice it contradicts; nothing else is; and the bytes the caller gets are those the service
// sent.

let sandbox: RunningSandbox;
let upstream: DriftingUpstream;
let receiver: LocalReceiver;
let proxy: DriftProxy;

afterEach(async () => {
  await Promise.all([proxy?.stop(), upstream?.stop(), receiver?.close()]);
  await sandbox?.stop();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Starts the sandbox behind `drifts`, a receiver answering 204, and the proxy in front of both. */
async function start(drifts: typeof DRIFTS, tapped: TappedExchange[]): Promise<{ token: string }> {
  sandbox = await startSandbox();
  upstream = await startDriftingUpstream(sandbox.url, drifts, (exchange) => tapped.push(exchange));
  receiver = await startReceiver(() => ({ status: 204 }));
  proxy = await startDriftProxy({ upstream: upstream.url, webhooksTo: receiver.url });
  return sandbox.createAccount();
}

/**
 * An integration's traffic through the proxy: an endpoint for receipt.created, three receipts,
 * reads of each list, of a receipt (three times), of a receipt that does not exist, and a delete.
 * Answers what the caller sent and got for each request, by its `X-Exchange`.
 */
async function traffic(token: string): Promise<Map<string, { request: string; status: number; response: string }>> {
  const seen = new Map<string, { request: string; status: number; response: string }>();
  const call = async (method: string, path: string, body?: string) => {
    const id = String(seen.size + 1);
    const response = await fetch(`${proxy.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-exchange': id },
      ...(body !== undefined && { body }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    seen.set(id, { request: sha256(Buffer.from(body ?? '')), status: response.status, response: sha256(bytes) });
  };
  await call(
    'POST',
    '/webhooks',
    JSON.stringify({ url: `${proxy.origin}/hooks/logbook`, events: ['receipt.created'] }),
  );
  for (const n of [1, 2, 3]) await call('POST', '/receipts', receiptBody(n));
  for (const _ of [1, 2, 3]) await call('GET', '/receipts/1');
  for (const path of ['/receipts', '/inventory', '/search?q=SBX', '/books', '/receipts/999']) await call('GET', path);
  await call('DELETE', '/receipts/3');
  return seen;
}

/** The report's violations as their place and choice, in a stable order. */
function places(report: ReturnType<DriftProxy['report']>) {
  return report.violations
    .map(({ method, path, status, pointer, choice }) => ({ method, path, status, pointer, choice }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('the drift proxy', { timeout: 30_000 }, () => {
  it('reports each break of a drifting service once, with its pointer and the choice it contradicts', async () => {
    const tapped: TappedExchange[] = [];
    const { token } = await start(DRIFTS, tapped);
    await traffic(token);
    await receiver.got(3);
    await expect.poll(() => proxy.report().deliveries).toBe(3);

    const report = proxy.report();
    expect(report.exchanges).toBe(13);
    expect(places(report)).toEqual(
      [
        { method: 'GET', path: '/receipts/{id}', status: 404, pointer: '/status', choice: 'receipts.visible-at-once' },
        { method: 'GET', path: '/receipts/{id}', status: 404, pointer: '/body/message', choice: 'errors.body' },
        {
          method: 'GET',
          path: '/receipts/{id}',
          status: 200,
          pointer: '/body/data/documents',
          choice: 'receipts.resource',
        },
        { method: 'GET', path: '/receipts', status: 200, pointer: '/body/meta', choice: 'pagination.envelope' },
        { method: 'GET', path: '/inventory', status: 200, pointer: '/body/meta/total', choice: 'pagination.meta' },
        { method: 'GET', path: '/search', status: 200, pointer: '/body/meta/per_page', choice: 'pagination.per-page' },
        {
          method: 'GET',
          path: '/books',
          status: 200,
          pointer: '/headers/x-ratelimit-remaining',
          choice: 'rate-limit.headers',
        },
        { method: 'DELETE', path: '/receipts/{id}', status: 200, pointer: '/status', choice: 'receipts.delete' },
        {
          method: 'POST',
          path: 'webhook:receipt.created',
          status: null,
          pointer: '/headers/x-svc-attempt',
          choice: null,
        },
        {
          method: 'POST',
          path: 'webhook:receipt.created',
          status: null,
          pointer: '/body/data/purchase_amount',
          choice: 'receipts.resource',
        },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
    // Seen more than once, reported once: each of the three deliveries lacked the field.
    expect(report.violations.find((v) => v.pointer === '/body/data/purchase_amount')?.count).toBe(3);
    const renamed = report.violations.find((v) => v.pointer === '/body/meta');
    expect(renamed?.seen).toBe('absent; the object has "pagination" instead, which the contract does not name');
    expect(renamed?.message).toContain('contradicts pagination.envelope');
  });

  it('relays every byte unchanged, each way, and finds nothing wrong with the sandbox', async () => {
    const tapped: TappedExchange[] = [];
    const { token } = await start([], tapped);
    const seen = await traffic(token);
    await receiver.got(3);
    await expect.poll(() => proxy.report().deliveries).toBe(3);

    expect(proxy.report()).toEqual({ exchanges: 13, deliveries: 3, violations: [] });
    expect(tapped).toHaveLength(seen.size);
    for (const exchange of tapped) {
      const sent = seen.get(exchange.id!);
      expect({
        request: sha256(exchange.request),
        status: exchange.status,
        response: sha256(exchange.response),
      }).toEqual(sent);
    }
    // Each delivery reached the receiver as the sandbox signed it.
    const deliveries = await sandbox.deliveries.list(token);
    expect(deliveries.map((delivery) => delivery.attempts[0]?.status_code)).toEqual([204, 204, 204]);
  });
});
