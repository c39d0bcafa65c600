import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { toNodeListener } from '@fflkit/webhooks';
import { createReceiverHandler, type ReceiverOptions, WEBHOOK_PATH } from './create-receiver-handler';

/** Writes a small JSON answer. */
function answer(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * The plain Node receiver, with no framework: `POST /webhooks` for deliveries, `GET /health` for
 * the load balancer, 404 for anything else.
 *
 * @example
 * ```ts
 * createServer(createNodeReceiver({ secret: process.env.FFLKIT_WEBHOOK_SECRET!, log })).listen(3000);
 * ```
 */
export function createNodeReceiver(options: ReceiverOptions): RequestListener {
  const path = options.path ?? WEBHOOK_PATH;
  const webhooks = toNodeListener(createReceiverHandler(options));
  return (request: IncomingMessage, response: ServerResponse) => {
    const { pathname } = new URL(request.url ?? '/', 'http://receiver.invalid');
    // Every method goes to the webhook listener on its path: it answers 405 to all but POST.
    if (pathname === path) void webhooks(request, response);
    else if (pathname === '/health' && request.method === 'GET') answer(response, 200, { status: 'ok' });
    else answer(response, 404, { message: 'Not found.' });
  };
}
