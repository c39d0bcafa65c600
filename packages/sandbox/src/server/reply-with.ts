import type { SandboxResponse } from '@boundbook/sandbox-core';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { BodySerializer } from './create-body-serializer';

/**
 * Turns the core's answer into a Hapi response: its status and headers, and its body as the
 * bytes of its JSON text (no body at all when the core gives none, as for a 204). Bytes rather
 * than a string spare Hapi measuring the text's UTF-8 length for `Content-Length`, and spare
 * the socket encoding it.
 */
export function replyWith(h: ResponseToolkit, answer: SandboxResponse, serialize: BodySerializer): ResponseObject {
  const response =
    answer.body === undefined
      ? h.response()
      : h.response(serialize(answer.body)).type('application/json; charset=utf-8');
  response.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) response.header(name, value);
  return response;
}
