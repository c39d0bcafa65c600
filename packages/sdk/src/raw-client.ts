// The raw client, `logbook.raw`: openapi-fetch's typed calls (`raw.GET('/receipts/{id}', { params })`
// answering `{ data, error, response }`) over the client's sender, and the one request function
// that every resource method calls through it.
import type { paths } from '@fflkit/types';
import type { Client } from 'openapi-fetch';
import { LogbookError } from './errors';
import type { Recover, Send } from './transport';

/**
 * The client behind `logbook.raw`: openapi-fetch's `GET`, `PUT`, `POST`, `DELETE` and `request`, typed
 * by the contract's `paths`. It shares the client's token, time-out, retries and rate limiter, and
 * returns `{ data, error, response }` instead of throwing for error statuses. A call takes
 * `params` (`path`, `query`, `header`), `body` (sent as JSON), `headers`, `parseAs` and the fields
 * of `RequestInit` (`signal`, ...); the client's policy replaces openapi-fetch's per-call
 * `baseUrl`, `fetch`, serializers and middleware (wrap the client's `fetch` to see each attempt).
 *
 * @example
 * ```ts
 * import { createApiError, type RawClient } from '@fflkit/sdk';
 *
 * async function bookNames(raw: RawClient): Promise<string[]> {
 *   const { data, error, response } = await raw.GET('/books');
 *   if (data === undefined) throw createApiError(response, error);
 *   return data.data.map((book) => book.name); // ['Main', ...]
 * }
 * ```
 */
export type RawClient = Pick<Client<paths>, 'GET' | 'PUT' | 'POST' | 'DELETE' | 'request'>;

/** What a call of the raw client takes, as the methods of the resources give it. */
export interface CallInit extends Omit<RequestInit, 'body' | 'headers' | 'signal'> {
  signal?: AbortSignal | null | undefined;
  params?: { path?: Record<string, unknown>; query?: object; header?: Record<string, unknown> };
  body?: unknown;
  headers?: HeadersInit | Record<string, unknown>;
  parseAs?: 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';
}

/** What a call answers: the parsed body of a success as `data`, of a failure as `error`. */
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** One call: `path` is a path template of the contract (`/receipts/{id}`), filled from `params`. */
export type Call = (method: string, path: string, init?: CallInit, recover?: Recover) => Promise<CallResult>;

/**
 * The request function of a client: builds the URL (path parameters and query encoded as
 * openapi-fetch does, `undefined` and `null` left out), the headers (`headers` over the client's
 * own, JSON content type when there is a body), sends through `send` and parses the answer.
 */
export function createCall(baseUrl: string, headers: Record<string, string>, send: Send): Call {
  const base = baseUrl.replace(/\/$/, '');
  return async (method, path, init = {}, recover) => {
    const { params = {}, body, headers: extra, parseAs = 'json', ...rest } = init;
    const query = Object.entries(params.query ?? {})
      .flatMap(([name, value]) =>
        value == null ? [] : [value].flat().map((item) => `${name}=${encodeURIComponent(item)}`),
      )
      .join('&');
    const url =
      base +
      path.replace(/\{(\w+)\}/g, (whole, name: string) =>
        params.path?.[name] == null ? whole : encodeURIComponent(String(params.path[name])),
      ) +
      (query && `?${query}`);
    const merged = new Headers(headers);
    if (body !== undefined) merged.set('Content-Type', 'application/json');
    for (const more of [extra, params.header]) {
      for (const [name, value] of more instanceof Headers || Array.isArray(more) ? more : Object.entries(more ?? {}))
        if (value != null) merged.set(name, String(value));
    }
    const response = await send(
      url,
      { ...rest, method, headers: merged, body: body === undefined ? null : JSON.stringify(body) },
      recover,
    );
    const { ok } = response;
    if (response.status === 204 || response.headers.get('Content-Length') === '0')
      return { [ok ? 'data' : 'error']: undefined, response };
    if (ok && parseAs !== 'json')
      return { data: parseAs === 'stream' ? response.body : await response[parseAs](), response };
    // A success that is not JSON throws (the contract answers JSON: a page such as a proxy's came
    // back instead); a failure keeps its text as the error.
    let parsed: unknown = await response.text();
    try {
      parsed = parsed ? JSON.parse(parsed as string) : undefined;
    } catch (error) {
      if (ok) {
        throw new LogbookError(
          `[@fflkit/sdk] ${method} ${url} answered ${response.status} without JSON: check baseUrl (it ends in /rest/v1) and any proxy in between`,
          {
            cause: error,
          },
        );
      }
    }
    return { [ok ? 'data' : 'error']: parsed, response };
  };
}

/** The raw client over a client's {@link Call}. */
export function createRawClient(call: Call): RawClient {
  const method =
    (name: string) =>
    (path: string, init?: CallInit): Promise<CallResult> =>
      call(name, path, init);
  return {
    GET: method('GET'),
    PUT: method('PUT'),
    POST: method('POST'),
    DELETE: method('DELETE'),
    request: (name: string, path: string, init?: CallInit) => call(name.toUpperCase(), path, init),
  } as unknown as RawClient;
}
