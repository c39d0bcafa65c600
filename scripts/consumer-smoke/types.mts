// The published declarations as a consumer's code uses them, type-checked by tsc and never run:
// as ESM (types.mts) and as CommonJS (types.cts, a copy the smoke test makes), so both the .d.ts
// and the .d.cts files are checked. Each @ts-expect-error proves a package's types are not `any`.
import { createLogbookMcpServer, type LogbookTool } from '@fflkit/mcp';
import { createMockLogbook, type CapturedDelivery } from '@fflkit/msw';
import { startSandbox, type RunningSandbox } from '@fflkit/sandbox';
import { createSandboxCore, type SandboxResponse } from '@fflkit/sandbox-core';
import { LogbookClient, NotFoundError, type CreatedWebhook, type Receipts } from '@fflkit/sdk';
import type { RECEIPT_STATUSES, Receipt, WebhookEvent, WebhookEventOf } from '@fflkit/types';
import { constructEvent, createWebhookHandler, signPayload, verifySignature } from '@fflkit/webhooks';
import * as webhooksWeb from '@fflkit/webhooks/web';
import type { HttpHandler } from 'msw';

export function describe(event: WebhookEvent): string {
  switch (event.event) {
    case 'receipt.created':
    case 'receipt.updated':
      return `${event.data.serial_number} in ${event.data.book}`;
    case 'receipt.disposed':
      return `${event.data.serial_number} to ${event.data.disposition?.disposed_to ?? 'nobody'}`;
    case 'receipt.deleted':
      return `${event.data.id} deleted at ${event.data.deleted_at}`;
    case 'ping':
      return event.data.message;
  }
}

export async function consume(): Promise<void> {
  const running: RunningSandbox = await startSandbox({ port: 0 });
  const { token } = await running.createAccount({ account_type: 'importer' });
  const logbook = new LogbookClient({ token, baseUrl: running.apiUrl, timeout: 5_000 });
  const receipts: Receipts = logbook.receipts;
  const receipt: Receipt = await receipts.get(1);
  const status: (typeof RECEIPT_STATUSES)[number] = receipt.status;
  const { secret }: CreatedWebhook = await logbook.webhooks.create({
    url: 'https://hooks.example.test/in',
    events: ['*'],
  });
  try {
    await logbook.receipts.get(2);
  } catch (error) {
    if (error instanceof NotFoundError) console.log(error.status, status);
  }

  const valid: boolean = await verifySignature([secret], '{}', 'sha256=00');
  const event = await constructEvent(new TextEncoder().encode('{}'), new Headers(), { secret, toleranceSeconds: 300 });
  const created: WebhookEventOf<'receipt.created'> | undefined = event.event === 'receipt.created' ? event : undefined;
  const webhooks = createWebhookHandler({
    secret,
    on: { 'receipt.disposed': (disposed) => console.log(disposed.data.disposition?.disposed_to) },
  });
  const answer: Response = await webhooks.handle(
    new Request('https://hooks.example.test/in', { method: 'POST', body: '{}' }),
  );
  const webWebhooks: ReturnType<typeof createWebhookHandler> = webhooksWeb.createWebhookHandler({
    secret: () => Promise.resolve(secret),
    on: {},
    deduplicateBy: 'body',
  });
  const webAnswer: Response = await webWebhooks.handle(
    new Request('https://hooks.example.test/in', { method: 'POST', body: '{}' }),
  );
  console.log(valid, created, answer.status, webAnswer.status, describe(event));

  const core = createSandboxCore({ now: () => 0, rateLimit: 0 });
  const books: SandboxResponse = await core.handle({ method: 'GET', path: '/rest/v1/books', query: '', headers: {} });
  const mock = createMockLogbook({ baseUrl: 'https://logbook.example.test/rest/v1' });
  const handlers: readonly HttpHandler[] = mock.handlers;
  const deliveries: readonly CapturedDelivery[] = mock.deliveries;
  console.log(books.status, handlers.length, deliveries.length);

  const probe: LogbookTool = {
    name: 'probe',
    title: 'Probe',
    description: 'A tool of the consumer.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'service',
    call: async (_args, context) => ({
      texts: [(await context.send({ method: 'GET', path: '/rest/v1/books' })).text],
      isError: false,
    }),
  };
  const mcpServer = createLogbookMcpServer({ baseUrl: running.apiUrl, token, extraTools: [probe] });
  await mcpServer.close();
  // @ts-expect-error: an extra tool states every annotation
  createLogbookMcpServer({ baseUrl: running.apiUrl, extraTools: [{ ...probe, annotations: { readOnlyHint: true } }] });

  // @ts-expect-error: a receipt's status is 'on_hand' or 'disposed'
  const sold: Receipt['status'] = 'sold';
  // @ts-expect-error: the client's timeout is a number of milliseconds
  new LogbookClient({ timeout: '5s' });
  // @ts-expect-error: signPayload resolves to the signature's text
  const signature: number = await signPayload(secret, '{}');
  // @ts-expect-error: the web build's signPayload resolves to the signature's text too
  const webSignature: number = await webhooksWeb.signPayload(secret, '{}');
  // @ts-expect-error: the core's request needs its method
  await core.handle({ path: '/rest/v1/books', query: '', headers: {} });
  // @ts-expect-error: the sandbox's port is a number
  await startSandbox({ port: '4010' });
  // @ts-expect-error: the mock needs the API's base URL
  createMockLogbook({});
  console.log(sold, signature, webSignature);
  await running.stop();
}
