import type { ObservedResponse } from './contract-validator';

/** A request to a running sandbox, as the contract tests and the fuzzer make them. */
export interface CallOptions {
  token?: string | undefined;
  query?: Record<string, string> | string;
  /** A value sent as JSON; `rawBody` wins when both are given. */
  body?: unknown;
  rawBody?: string;
  /** Headers to send; a `content-type` here replaces the `application/json` of a body. */
  headers?: Record<string, string>;
}

/**
 * Calls `origin + path` and returns status, headers and the body: parsed when it is JSON (or
 * comes without a Content-Type), as text otherwise (a CSV export), `undefined` when empty.
 */
export async function call(
  origin: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ObservedResponse> {
  const query = typeof options.query === 'string' ? options.query : new URLSearchParams(options.query ?? {}).toString();
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${origin}${path}${query ? `?${query}` : ''}`, { method, headers, body: body ?? null });
  const text = await response.text();
  const type = response.headers.get('content-type');
  const json = type === null || /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : json ? JSON.parse(text) : text,
  };
}
