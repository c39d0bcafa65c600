import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChoice } from '../contract-check/choices';
import { findOperation } from '../contract-check/contract';
import { DeliveryChecker } from '../contract-check/delivery-check';
import { ExchangeChecker, header } from '../contract-check/exchange-check';
import { SchemaChecker } from '../contract-check/schema-check';
import { type DriftReport, ViolationLog } from '../contract-check/violations';
import { FixturesRecorder, type RecordedFixtures } from './fixtures-recorder';
import { API_PREFIX, type DriftProxyOptions, DriftProxyError, readReceiver, readUpstream } from './proxy-options';
import { agentFor, answerJson, type Relayed, relay, type RelayTarget } from './relay';

// The drift proxy: a local server in front of the real service's API (`/rest/v1`), which relays
// every request and answer unchanged and checks each exchange against the contract once its
// answer has reached the caller; with a receiver to relay to, it also takes the service's
// webhook deliveries, checks them and relays them unchanged. The caller's token passes through
// as it came: it is neither kept nor written anywhere (the exchange checker tells callers apart by a keyed hash).

/** A running drift proxy. */
export interface DriftProxy {
  /** `http://host:port`. */
  readonly origin: string;
  /** The API's base URL on the proxy: `origin + '/rest/v1'`. */
  readonly apiUrl: string;
  /** The service's base URL it relays to. */
  readonly upstream: string;
  /** What was checked so far, and each distinct violation. */
  report(): DriftReport;
  /** What was recorded, as a fixtures file; with `record: true` only. */
  recorded(): Promise<RecordedFixtures>;
  /** Stops listening and closes every connection; resolves once the server is closed. */
  stop(): Promise<void>;
}

/** What the proxy shows of itself, for its own surface. */
export interface DriftState extends DriftReport {
  /** The service's base URL the proxy relays to. */
  readonly upstream: string;
  /** The receiver deliveries are relayed to, or `null`. */
  readonly webhooksTo: string | null;
  /** The rule of each choice the violations contradict, by its id. */
  readonly rules: Readonly<Record<string, string>>;
}

/** The proxy's web side, which the caller provides: its guard, its own surface and its origin's form. */
export interface DriftProxyWeb {
  /** The refusal of a request that must not reach the proxy (a foreign Host), or `undefined`. */
  refusal(path: string, headers: IncomingMessage['headers']): { status: number; message: string } | undefined;
  /** Answers a request of the proxy's own surface; `false` when the path is not one of it. */
  surface(request: IncomingMessage, response: ServerResponse, state: () => DriftState): boolean;
  /** The origin of a server listening on `host` and `port`. */
  origin(host: string, port: number): string;
}

/** Starts a drift proxy with `web` as its web side; see `startDriftProxy()`. */
export async function serveDriftProxy(options: DriftProxyOptions, web: DriftProxyWeb): Promise<DriftProxy> {
  const upstream = readUpstream(options.upstream);
  const receiver = options.webhooksTo === undefined ? undefined : readReceiver(options.webhooksTo);
  const host = options.host ?? '127.0.0.1';
  const schemas = new SchemaChecker();
  const exchanges = new ExchangeChecker({ schemas });
  const deliveries = new DeliveryChecker({ secret: options.secret, schemas });
  exchanges.prepare();
  deliveries.prepare();
  const log = new ViolationLog(options.onViolation);
  const recorder = options.record === true ? new FixturesRecorder() : undefined;
  const upstreamAgent = agentFor(upstream);
  const receiverAgent = receiver === undefined ? undefined : agentFor(receiver);
  const state = (): DriftState => {
    const report = log.report();
    const rules: Record<string, string> = {};
    for (const { choice } of report.violations) if (choice !== null) rules[choice] = findChoice(choice)?.rule ?? '';
    return { upstream: upstream.href, webhooksTo: receiver?.href ?? null, ...report, rules };
  };
  // Orders requests and answers for the read-after-write checks.
  let sequence = 0;

  const onExchange = (started: number, relayed: Relayed): void => {
    const target = relayed.url.slice(API_PREFIX.length) || '/';
    const ended = (sequence += 1);
    // A body too large to keep, or in a coding the proxy cannot read, is not judged.
    if (relayed.responseBody === undefined) {
      log.record('exchange', []);
      return;
    }
    log.record('exchange', exchanges.check({ ...relayed, target, responseBody: relayed.responseBody, started, ended }));
    const authorization = header(relayed.requestHeaders, 'authorization');
    if (recorder === undefined || authorization === undefined) return;
    const found = findOperation(relayed.method, target.split('?', 1)[0]!);
    if (found === undefined) return;
    let body: unknown;
    try {
      body = relayed.responseBody.length === 0 ? undefined : JSON.parse(relayed.responseBody.toString('utf8'));
    } catch {
      return;
    }
    const id = /^\d+$/.test(found.params['id'] ?? '') ? Number(found.params['id']) : undefined;
    recorder.observe(exchanges.callerOf(authorization), found.operation.id, id, relayed.status, body);
  };
  const onDelivery = (relayed: Relayed): void => {
    if (relayed.requestBody !== undefined) {
      log.record('delivery', deliveries.check({ headers: relayed.requestHeaders, body: relayed.requestBody }));
    }
  };
  const relayTo = (
    request: IncomingMessage,
    response: ServerResponse,
    target: RelayTarget,
    onEnd: (relayed: Relayed) => void,
  ) => {
    response.once('finish', () => {
      if (response.statusCode === 502 || response.statusCode === 504) {
        options.onUnreachable?.(`${target.name} did not answer (${response.statusCode})`);
      }
    });
    relay(request, response, target, onEnd);
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = request.url ?? '/';
    if (!url.startsWith('/')) {
      answerJson(response, 400, {
        message: 'The drift proxy takes a path, not an absolute URL: it is not a forward proxy.',
      });
      return;
    }
    const path = url.split('?', 1)[0]!;
    const refusal = web.refusal(path, request.headers);
    if (refusal !== undefined) {
      answerJson(response, refusal.status, { message: refusal.message });
      return;
    }
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) {
      const started = (sequence += 1);
      const target: RelayTarget = {
        server: upstream,
        path: `${upstream.pathname}${url.slice(API_PREFIX.length)}`,
        agent: upstreamAgent,
        name: `the service at ${upstream.href}`,
        hint: 'Check that it runs and that --upstream names its base URL.',
      };
      relayTo(request, response, target, (relayed) => onExchange(started, relayed));
      return;
    }
    if (web.surface(request, response, state)) return;
    if (receiver !== undefined && receiverAgent !== undefined && request.method === 'POST') {
      const target: RelayTarget = {
        server: receiver,
        // A receiver named by its origin alone gets the path the delivery came to.
        path: receiver.pathname === '/' && receiver.search === '' ? url : `${receiver.pathname}${receiver.search}`,
        agent: receiverAgent,
        name: `the receiver at ${receiver.href}`,
        hint: 'Check that it runs and that --webhooks-to names it.',
      };
      relayTo(request, response, target, onDelivery);
      return;
    }
    answerJson(response, 404, {
      message: `The drift proxy relays the service API under ${API_PREFIX} (to ${upstream.href})${receiver === undefined ? '' : ' and takes webhook deliveries as POST requests'}; ${request.method} ${path} is neither.`,
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = web.origin(host, (server.address() as AddressInfo).port);
  return {
    origin,
    apiUrl: `${origin}${API_PREFIX}`,
    upstream: upstream.href,
    report: () => log.report(),
    recorded: async () => {
      if (recorder === undefined) {
        throw new DriftProxyError('[@fflkit/sandbox] startDriftProxy(): pass record: true to record fixtures');
      }
      return recorder.fixtures();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstreamAgent.destroy();
        receiverAgent?.destroy();
      }),
  };
}
