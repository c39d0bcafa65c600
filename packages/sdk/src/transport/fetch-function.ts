/**
 * The `fetch` a client sends with: the global one by default, or one passed in (tests, proxies,
 * instrumentation). It is called as `fetch(url, init)`, the init carrying the method, headers,
 * body and the attempt's `signal`.
 *
 * @example
 * ```ts
 * const fetch: FetchFunction = async (url, init) => Response.json({ data: [] });
 * const bb = new BoundBook({ token: 't', baseUrl: 'https://example.test/rest/v1', fetch });
 * ```
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;
