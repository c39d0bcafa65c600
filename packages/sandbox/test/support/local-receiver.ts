import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got, with its raw body. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, as UTF-8 text. */
  readonly body: string;
  /** `performance.now()` when the whole body was in. */
  readonly at: number;
}

/** How the receiver answers: a status (with headers), or `'hang'` to never answer. */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on 127.0.0.1 and a free port, for tests: it keeps every request and
 * answers with `reply` (200 unless told otherwise).
 */
export async function startReceiver(reply: (request: Received) => Reply = () => ({ status: 200 })) {
  const received: Received[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const hanging = new Set<ServerResponse>();
  const state = { reply };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: Received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      received.push(entry);
      const answer = state.reply(entry);
      if (answer === 'hang') hanging.add(response);
      else response.writeHead(answer.status, answer.headers).end('ok');
      for (const waiter of waiting.filter((waiter) => received.length >= waiter.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Changes how the receiver answers from now on. */
    set reply(next: (request: Received) => Reply) {
      state.reply = next;
    },
    /** Resolves once `count` requests have arrived in all. */
    got(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
    /** Answers every request held so far with `status`. */
    release(status: number): void {
      for (const response of hanging) response.writeHead(status).end('ok');
      hanging.clear();
    },
    async close(): Promise<void> {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A receiver as {@link startReceiver} makes it. */
export type LocalReceiver = Awaited<ReturnType<typeof startReceiver>>;
