import { isBoom } from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import { errorMessageFor } from './error-message-for';

/**
 * Hapi `onPreResponse` extension that answers every Boom error in the contract's error shape,
 * `{"message": string}`, keeping its status and headers (such as `Allow` on a 405), so Hapi's
 * default `{statusCode, error, message}` body never reaches a client.
 */
export function shapeErrorResponse(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
  const { response } = request;
  if (!isBoom(response)) return h.continue;
  const reply = h
    .response(JSON.stringify({ message: errorMessageFor(response) }))
    .type('application/json; charset=utf-8')
    .code(response.output.statusCode);
  for (const [name, value] of Object.entries(response.output.headers)) {
    if (value !== undefined) reply.header(name, String(value));
  }
  return reply;
}
