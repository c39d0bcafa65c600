import type { SandboxResponse } from '@boundbook/sandbox-core';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';

/**
 * Turns the core's answer into a Hapi response: its status and headers, and its body as JSON
 * (no body at all when the core gives none, as for a 204).
 *
 * @example
 * ```ts
 * handler: async (request, h) => replyWith(h, await core.handle(toSandboxRequest(request, body)));
 * ```
 */
export function replyWith(h: ResponseToolkit, answer: SandboxResponse): ResponseObject {
  const response =
    answer.body === undefined
      ? h.response()
      : h.response(JSON.stringify(answer.body)).type('application/json; charset=utf-8');
  response.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) response.header(name, value);
  return response;
}
