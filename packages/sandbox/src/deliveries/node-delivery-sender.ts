import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import {
  describeDeliveryFailure,
  describeDeliveryTimeout,
  type DeliveryOutcome,
  type DeliveryRequest,
  type DeliverySender,
} from '@fflkit/sandbox-core';
import { WEBHOOK_TIMEOUT_SECONDS } from '@fflkit/types';
import { misuseError } from '../support/errors';

/** Options of {@link createNodeDeliverySender}. */
export interface NodeDeliverySenderOptions {
  /** How long a receiver has to answer with a status; defaults to 5 s, as the service. */
  timeoutMs?: number | undefined;
  /** Sockets kept open per receiver's host; defaults to 64. */
  maxSockets?: number | undefined;
}

/** The transport of the sandbox's deliveries, and how to let go of its sockets. */
export interface NodeDeliverySender {
  readonly send: DeliverySender;
  /** How long a receiver has to answer, in milliseconds. */
  readonly timeoutMs: number;
  /** Aborts the requests in flight (they resolve with an error) and closes every socket. */
  close(): void;
}

/**
 * A transport that POSTs each delivery with `node:http` or `node:https` over keep-alive
 * connections. It resolves with the status of the answer, whatever it is (a redirect is not
 * followed: `node:http` never follows one), once the status line and headers are in; the body is
 * read and dropped. Without a status within the time-out, or when the connection fails, it
 * resolves with the reason.
 */
export function createNodeDeliverySender(options: NodeDeliverySenderOptions = {}): NodeDeliverySender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw misuseError(`the webhook time-out must be a positive number of milliseconds, not ${String(timeoutMs)}`);
  }
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
  const httpAgent = new http.Agent(agentOptions);
  // Made at the first https delivery: the CLI's bundle loads `node:https` (TLS) at its first use,
  // so a start that sends no webhook to an https URL never loads it.
  let httpsAgent: https.Agent | undefined;
  const inFlight = new Set<ClientRequest>();
  const timeoutError = describeDeliveryTimeout(timeoutMs);

  const send = (request: DeliveryRequest): Promise<DeliveryOutcome> =>
    new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        resolve({ error: 'The endpoint URL is not a valid URL.' });
        return;
      }
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') {
        resolve({ error: `The endpoint URL's scheme ${url.protocol} is neither http: nor https:.` });
        return;
      }
      let settled = false;
      const settle = (outcome: DeliveryOutcome): void => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const body = Buffer.from(request.body, 'utf8');
      const client = (secure ? https : http).request(url, {
        method: request.method,
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        agent: secure ? (httpsAgent ??= new https.Agent(agentOptions)) : httpAgent,
      });
      inFlight.add(client);
      // The time-out covers the status; a body that never ends is cut off at the same moment.
      const timer = setTimeout(() => {
        settle({ error: timeoutError });
        client.destroy();
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        inFlight.delete(client);
      };
      client.once('response', (response) => {
        settle({ status: response.statusCode ?? 0 });
        response.once('end', done).once('error', done).once('close', done).resume();
      });
      client.once('error', (error: NodeJS.ErrnoException) => {
        done();
        settle({ error: describeDeliveryFailure(error.code, error.message) });
      });
      client.end(body);
    });

  return {
    send,
    timeoutMs,
    close() {
      for (const client of inFlight) client.destroy();
      inFlight.clear();
      httpAgent.destroy();
      httpsAgent?.destroy();
    },
  };
}
