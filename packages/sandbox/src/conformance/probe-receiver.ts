import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// The webhook receiver of a conformance run that writes: a local endpoint the run subscribes to
// every event, which keeps each delivery as it came (headers and body bytes) and answers 204. A
// service that cannot reach it (one that is not on this machine) brings nothing: the choices
// only deliveries show are then not probed.

/** A delivery as the receiver got it. */
export interface ReceivedDelivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A running receiver. */
export interface ProbeReceiver {
  /** Its URL, for `POST /webhooks`. */
  readonly url: string;
  readonly received: readonly ReceivedDelivery[];
  /** Resolves once a delivery satisfies `wanted`, or after `timeoutMs`, with whether one did. */
  until(wanted: (received: readonly ReceivedDelivery[]) => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 and a free port, at the path `path`. */
export async function startProbeReceiver(path: string): Promise<ProbeReceiver> {
  const received: ReceivedDelivery[] = [];
  const listeners = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST') received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
      for (const listener of listeners) listener();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    until: (wanted, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const check = () => {
          if (!wanted(received)) return;
          done(true);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (result: boolean) => {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(result);
        };
        listeners.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
