import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReceiverWorker, type Env } from '../../src/receiver-worker';
import type { ReceiptEventMessage } from '../../src/receipt-event-queue';
import { createMessageLog, type WorkerUnderTest } from './worker-under-test';

/** The largest message Cloudflare Queues takes. */
const QUEUE_MESSAGE_BYTES = 128_000;

/**
 * The Worker's Fetch handler served by `node:http` on a free port, its queue an array: the
 * handler and the web build of `@fflkit/webhooks` as they are, on Node's Fetch API and Web
 * Crypto. Until `start`, requests are answered 503, which the sandbox retries like any failure.
 *
 * @example
 * ```ts
 * const worker = await launchOnNode();
 * const { secret } = await logbook.webhooks.create({ url: `${worker.origin}/webhooks`, events: ['*'] });
 * await worker.start(secret);
 * ```
 */
export async function launchOnNode(): Promise<WorkerUnderTest> {
  const log = createMessageLog();
  const worker = createReceiverWorker();
  let env: Env | undefined;
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => response.destroy(error as Error));
  });
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (env === undefined) {
      response.writeHead(503).end();
      return;
    }
    let answer: Response;
    try {
      answer = await worker.fetch(await toFetchRequest(request, origin), env);
    } catch (error) {
      // As workerd does when a Worker throws: a 500, and the error in the log.
      console.error(error);
      answer = new Response(null, { status: 500 });
    }
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  }
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    messages: log.messages,
    received: log.received,
    async start(secret) {
      // structuredClone: a real queue sends a copy of the message, never the object itself, and
      // refuses one of more than 128 KB, as Cloudflare Queues does.
      const send = async (message: ReceiptEventMessage) => {
        const bytes = Buffer.byteLength(JSON.stringify(message));
        if (bytes > QUEUE_MESSAGE_BYTES)
          throw new Error(
            `Queue send failed: message length of ${bytes} bytes exceeds limit of ${QUEUE_MESSAGE_BYTES}`,
          );
        log.add(structuredClone(message));
      };
      env = { FFLKIT_WEBHOOK_SECRET: secret, RECEIPT_EVENTS: { send } };
    },
    async close() {
      // The sandbox keeps its delivery connections alive; without this, close() would wait for them.
      server.closeAllConnections();
      await new Promise<void>((closed, failed) => server.close((error) => (error ? failed(error) : closed())));
    },
  };
}

/** The Fetch `Request` of a Node request, its body read whole: deliveries are small. */
async function toFetchRequest(request: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    headers.append(request.rawHeaders[index] as string, request.rawHeaders[index + 1] as string);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(request.url ?? '/', origin), {
    method: request.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}
