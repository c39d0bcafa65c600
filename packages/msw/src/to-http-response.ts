import type { SandboxResponse } from '@boundbook/sandbox-core';
import { HttpResponse } from 'msw';

/**
 * Turns the core's answer into an MSW response: the status and headers as given, the body as
 * JSON with the sandbox server's `Content-Type` (`application/json; charset=utf-8`, so that code
 * reading the header sees the same on both), and no body at all for a 204 or an answer to `HEAD`.
 *
 * @example
 * ```ts
 * const response = toHttpResponse({ status: 204, headers: {} });
 * response.status; // 204
 * ```
 */
export function toHttpResponse(answer: SandboxResponse, method = 'GET'): HttpResponse<string> {
  if (answer.status === 204 || answer.body === undefined) {
    return new HttpResponse(null, { status: answer.status, headers: answer.headers });
  }
  if (method === 'HEAD') {
    return new HttpResponse(null, { status: answer.status, headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers } });
  }
  // A text body (a CSV export) comes with its own Content-Type and is sent as it is.
  if (typeof answer.body === 'string') return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  return new HttpResponse(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers },
  });
}
