import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A service that drifts from the contract: the sandbox behind a transform that breaks each rule
// it is told to, each on one operation, the way a real service could differ from the contract's
// choices. Webhook endpoints made through it receive their deliveries through it too (their URL
// is rewritten on the way in and back on the way out), so that deliveries can drift as well.

/** One way the transform breaks the contract. */
export type Drift =
  /** `GET /receipts/{id}` answers the receipt without `documents`. */
  | 'missing-field'
  /** `GET /receipts` answers `pagination` where the envelope has `meta`. */
  | 'renamed-envelope-key'
  /** `GET /inventory` answers `meta.total` as a string. */
  | 'number-as-string'
  /** `DELETE /receipts/{id}` answers 200 with an empty body instead of 204. */
  | 'delete-status'
  /** `GET /books` answers without `X-RateLimit-Remaining`. */
  | 'missing-rate-limit-header'
  /** `GET /search` without `per_page` answers pages of 15. */
  | 'default-page-size'
  /** A 404 of `GET /receipts/{id}` answers `{"error": "Not Found"}`. */
  | 'error-shape'
  /** Deliveries carry an `X-SVC-Attempt` header and lack `data.purchase_amount`. */
  | 'delivery-shape'
  /** A new receipt is 404 for the first two reads of it. */
  | 'visible-after-delay';

/** Every drift, for a test that breaks them all. */
export const DRIFTS: readonly Drift[] = [
  'missing-field',
  'renamed-envelope-key',
  'number-as-string',
  'delete-status',
  'missing-rate-limit-header',
  'default-page-size',
  'error-shape',
  'delivery-shape',
  'visible-after-delay',
];

/** How many reads of a new receipt answer 404 under `visible-after-delay`. */
export const HIDDEN_READS = 2;

/** A running drifting service. */
export interface DriftingUpstream {
  /** Its origin; the API is under `/rest/v1`, as on the sandbox. */
  readonly url: string;
  stop(): Promise<void>;
}

const DELIVERY_PATH = '/_drifting/deliveries';
const DROPPED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/** What the service took in and gave out for one request to its API, as bytes. */
export interface TappedExchange {
  /** The request's `X-Exchange` header, which a test sets to match the exchange with what it sent. */
  readonly id: string | undefined;
  readonly request: Buffer;
  readonly status: number;
  readonly response: Buffer;
}

/**
 * Starts the transform in front of the sandbox at `sandboxOrigin`, breaking `drifts` (none: it
 * answers as the sandbox does); `tap` hears each exchange of its API as it answered it.
 */
export async function startDriftingUpstream(
  sandboxOrigin: string,
  drifts: readonly Drift[],
  tap: (exchange: TappedExchange) => void = () => undefined,
): Promise<DriftingUpstream> {
  const on = new Set(drifts);
  const hidden = new Map<number, number>();
  const secrets = new Map<string, string>();
  let origin = '';

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await read(request);
    const url = new URL(request.url ?? '/', 'http://drifting.test');
    if (url.pathname === DELIVERY_PATH) {
      const to = url.searchParams.get('to')!;
      return relayDelivery(to, secrets.get(to), request, body, response, on);
    }
    const path = url.pathname.replace(/^\/rest\/v1/, '');
    const method = request.method ?? 'GET';
    if (on.has('default-page-size') && method === 'GET' && path === '/search' && !url.searchParams.has('per_page')) {
      url.searchParams.set('per_page', '15');
    }
    let sent = body;
    let relayedTo: string | undefined;
    if (method === 'POST' && path === '/webhooks' && body.length > 0) {
      const webhook = JSON.parse(body.toString('utf8')) as { url?: string };
      if (typeof webhook.url === 'string' && /^https?:\/\//.test(webhook.url)) {
        relayedTo = webhook.url;
        webhook.url = `${origin}${DELIVERY_PATH}?to=${encodeURIComponent(webhook.url)}`;
        sent = Buffer.from(JSON.stringify(webhook));
      }
    }
    const upstream = await fetch(`${sandboxOrigin}${url.pathname}${url.search}`, {
      method,
      headers: forwarded(request),
      ...(sent.length > 0 && { body: new Uint8Array(sent) }),
    });
    let status = upstream.status;
    const headers = new Map<string, string>();
    upstream.headers.forEach((value, name) => {
      if (!DROPPED.has(name)) headers.set(name, value);
    });
    let text = await upstream.text();
    const receiptId = /^\/receipts\/(\d+)$/.exec(path)?.[1];
    if (on.has('visible-after-delay') && method === 'POST' && path === '/receipts' && status === 201) {
      hidden.set((JSON.parse(text) as { data: { id: number } }).data.id, HIDDEN_READS);
    }
    if (
      on.has('visible-after-delay') &&
      method === 'GET' &&
      receiptId !== undefined &&
      (hidden.get(Number(receiptId)) ?? 0) > 0
    ) {
      hidden.set(Number(receiptId), hidden.get(Number(receiptId))! - 1);
      status = 404;
      text = JSON.stringify({ message: 'Record not found.' });
    }
    if (method === 'GET' && status === 200) {
      if (on.has('missing-field') && receiptId !== undefined) text = edit(text, (json) => delete json.data.documents);
      if (on.has('renamed-envelope-key') && path === '/receipts') {
        text = edit(text, (json) => {
          json.pagination = json.meta;
          delete json.meta;
        });
      }
      if (on.has('number-as-string') && path === '/inventory')
        text = edit(text, (json) => (json.meta.total = String(json.meta.total)));
      if (on.has('missing-rate-limit-header') && path === '/books') headers.delete('x-ratelimit-remaining');
    }
    if (method === 'GET' && status === 404 && receiptId !== undefined && on.has('error-shape')) {
      text = JSON.stringify({ error: 'Not Found' });
    }
    if (on.has('delete-status') && method === 'DELETE' && receiptId !== undefined && status === 204) {
      status = 200;
      headers.set('content-type', 'application/json');
    }
    if (relayedTo !== undefined && status === 201) {
      // The secret, to sign a delivery that drifts as the service would sign it.
      secrets.set(relayedTo, (JSON.parse(text) as { secret: string }).secret);
    }
    if (path === '/webhooks' && status < 300) {
      // The endpoints' URLs as the caller gave them.
      text = text.replaceAll(
        new RegExp(`${escapeRegExp(JSON.stringify(`${origin}${DELIVERY_PATH}?to=`).slice(1, -1))}([^"]*)`, 'g'),
        (_, to: string) => decodeURIComponent(to),
      );
    }
    const answer = Buffer.from(text);
    tap({ id: request.headers['x-exchange'] as string | undefined, request: body, status, response: answer });
    response.writeHead(status, Object.fromEntries(headers));
    response.end(answer);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A delivery of the sandbox, relayed to where the endpoint's URL pointed, drifting when told. */
async function relayDelivery(
  to: string,
  secret: string | undefined,
  request: IncomingMessage,
  body: Buffer,
  response: ServerResponse,
  on: ReadonlySet<Drift>,
): Promise<void> {
  const headers = forwarded(request);
  let sent = body;
  if (on.has('delivery-shape')) {
    headers['x-svc-attempt'] = '1';
    const delivery = JSON.parse(body.toString('utf8')) as { data: Record<string, unknown> };
    if ('purchase_amount' in delivery.data) {
      delete delivery.data['purchase_amount'];
      sent = Buffer.from(JSON.stringify(delivery));
      if (secret !== undefined)
        headers['x-svc-signature'] = `sha256=${createHmac('sha256', secret).update(sent).digest('hex')}`;
    }
  }
  const answer = await fetch(to, { method: 'POST', headers, body: new Uint8Array(sent) });
  response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
  response.end(Buffer.from(await answer.arrayBuffer()));
}

function forwarded(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'host' || DROPPED.has(name) || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function read(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function edit(text: string, change: (json: any) => unknown): string {
  const json = JSON.parse(text);
  change(json);
  return JSON.stringify(json);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
