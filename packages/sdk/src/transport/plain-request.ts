/**
 * What openapi-fetch builds for each call in place of a `Request`: the URL and the init it
 * computed (method, headers, body, signal, redirect), as plain properties. The transport hands
 * them to `fetch`, which builds the one `Request` of each attempt, so a call builds no `Request`
 * (and no `AbortSignal`) that is never sent, and a retry sends the same string body again.
 *
 * @example
 * ```ts
 * const request = new PlainRequest('https://logbook.example.com/rest/v1/books', { method: 'GET' });
 * await fetch(request.url, request);
 * ```
 */
export class PlainRequest {
  declare readonly url: string;
  declare readonly method: string;
  declare readonly headers: Headers;
  declare readonly body: string | null | undefined;
  declare readonly signal: AbortSignal | null | undefined;

  constructor(url: string, init: RequestInit) {
    Object.assign(this, init, { url });
  }
}
