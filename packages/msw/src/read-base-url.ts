/** Where the mock answers: the API's base URL and its origin. */
export interface MockEndpoints {
  /** The base URL without a trailing slash: the origin and `/rest/v1`. */
  readonly apiUrl: string;
  /** The origin, where `/_sandbox` answers. */
  readonly origin: string;
}

/**
 * Checks a base URL and splits it into what the handlers need. Throws a `TypeError` naming the
 * function unless it is an absolute http(s) URL whose path is `/rest/v1`, as the service's and
 * the sandbox's are (the core builds pagination links from the origin and the path).
 *
 * @example
 * ```ts
 * readBaseUrl('https://api.boundbook.test/rest/v1/', 'createMockBoundBook');
 * // { apiUrl: 'https://api.boundbook.test/rest/v1', origin: 'https://api.boundbook.test' }
 * ```
 */
export function readBaseUrl(baseUrl: unknown, caller: string): MockEndpoints {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/+$/, '') ?? '';
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || path !== '/rest/v1') {
    throw new TypeError(
      `[@boundbook/msw] ${caller}(): baseUrl must be an http(s) origin followed by /rest/v1, such as https://api.boundbook.test/rest/v1; got ${JSON.stringify(baseUrl)}`,
    );
  }
  return { apiUrl: `${url.origin}${path}`, origin: url.origin };
}
