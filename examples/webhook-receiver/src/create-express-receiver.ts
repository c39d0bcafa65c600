import express, { type Express } from 'express';
import { toExpressMiddleware } from '@fflkit/webhooks';
import { createReceiverHandler, type ReceiverOptions, WEBHOOK_PATH } from './create-receiver-handler';

/**
 * The Express 5 receiver: `POST /webhooks` for deliveries (405 with `Allow: POST` for any other
 * method there) and `GET /health` for the load balancer.
 * The app is a request listener: `app.listen(port)` or `http.createServer(app)`.
 *
 * @example
 * ```ts
 * createExpressReceiver({ secret: process.env.FFLKIT_WEBHOOK_SECRET!, log }).listen(3000);
 * ```
 */
export function createExpressReceiver(options: ReceiverOptions): Express {
  const app = express();
  // Mounted before express.json(): the signature covers the exact bytes sent, so the webhook route
  // must see the raw body, which the middleware reads from the request stream itself. Mounted for
  // every method, so that the handler answers 405 to all but POST, as the node:http receiver does,
  // where app.post() would leave Express to answer 404.
  app.all(options.path ?? WEBHOOK_PATH, toExpressMiddleware(createReceiverHandler(options)));
  // The rest of the app parses JSON as usual.
  app.use(express.json());
  app.get('/health', (_request, response) => {
    response.json({ status: 'ok' });
  });
  return app;
}
