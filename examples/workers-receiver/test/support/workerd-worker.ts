import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import type { ReceiptEventMessage } from '../../src/receipt-event-queue';
import wrangler from '../../wrangler.json' with { type: 'json' };
import { createMessageLog, type WorkerUnderTest } from './worker-under-test';

/**
 * The Worker as wrangler would deploy it: `src/worker.ts` bundled by esbuild for workerd, its
 * `@fflkit/webhooks/web` import resolved to the package's built web build.
 *
 * @example
 * ```ts
 * const script = await bundleWorker(); // an ES module, about 20 kB
 * ```
 */
export async function bundleWorker(): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL(`../../${wrangler.main}`, import.meta.url))],
    bundle: true,
    format: 'esm',
    // The conditions wrangler resolves packages with.
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const [bundle] = outputFiles;
  if (bundle === undefined) throw new Error('esbuild wrote no bundle of the Worker');
  return bundle.text;
}

// A second Worker stands for the queue's consumer: it hands each batch to the test, in order.
const CONSUMER = `export default {
  async queue(batch, env) {
    const answer = await env.MESSAGES.fetch('http://test/messages', { method: 'POST', body: JSON.stringify(batch.messages.map((message) => message.body)) });
    if (!answer.ok) throw new Error('the test refused a batch: ' + answer.status);
  },
};`;

/**
 * The bundled Worker on workerd under miniflare, on a free port of 127.0.0.1, with its queue
 * producer binding as `wrangler.json` declares it; a consumer Worker hands the queue's messages
 * to the test, each batch as soon as it is sent.
 *
 * @example
 * ```ts
 * const worker = await launchOnWorkerd(await bundleWorker());
 * const { secret } = await logbook.webhooks.create({ url: `${worker.origin}/webhooks`, events: ['*'] });
 * await worker.start(secret);
 * ```
 */
export async function launchOnWorkerd(script: string): Promise<WorkerUnderTest> {
  const [producer] = wrangler.queues.producers;
  if (producer === undefined) throw new Error('wrangler.json declares no queue producer');
  const port = await freePort();
  const log = createMessageLog();
  let miniflare: Miniflare | undefined;
  return {
    origin: `http://127.0.0.1:${port}`,
    messages: log.messages,
    received: log.received,
    async start(secret) {
      miniflare = new Miniflare({
        host: '127.0.0.1',
        port,
        workers: [
          {
            name: wrangler.name,
            modules: true,
            script,
            compatibilityDate: wrangler.compatibility_date,
            bindings: { FFLKIT_WEBHOOK_SECRET: secret },
            queueProducers: { [producer.binding]: { queueName: producer.queue } },
          },
          {
            name: 'test-queue-consumer',
            modules: true,
            script: CONSUMER,
            compatibilityDate: wrangler.compatibility_date,
            queueConsumers: { [producer.queue]: { maxBatchTimeout: 0 } },
            serviceBindings: {
              async MESSAGES(request) {
                for (const message of (await request.json()) as ReceiptEventMessage[]) log.add(message);
                return new Response(null, { status: 204 });
              },
            },
          },
        ],
      });
      await miniflare.ready;
    },
    async close() {
      await miniflare?.dispose();
    },
  };
}

/**
 * A port of 127.0.0.1 that nothing listens on: the endpoint is registered with the Worker's URL
 * before miniflare starts it, since the Worker's secret comes from that registration.
 */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
