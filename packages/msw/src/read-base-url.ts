/** Where the mock answers: the API's base URL, its origin and the path before `/rest/v1`. */
export interface MockEndpoints {
  /** The base URL without a trailing slash, ending in `/rest/v1`. */
  readonly apiUrl: string;
  /** The origin, where `/_sandbox` answers. */
  readonly origin: string;
  /** What precedes `/rest/v1` in the base URL's path; `''` for most. */
  readonly pathPrefix: string;
}

/**
 * Checks a base URL and splits it into what the handlers need. Throws a `TypeError` unless it is
 * an absolute http(s) URL whose path ends in `/rest/v1`.
 *
 * @example
 * ```ts
 * readBaseUrl('https://api.boundbook.test/rest/v1/');
 * // { apiUrl: 'https://api.boundbook.test/rest/v1', origin: 'https://api.boundbook.test', pathPrefix: '' }
 * ```
 */
export function readBaseUrl(baseUrl: unknown): MockEndpoints {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/+$/, '') ?? '';
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || !path.endsWith('/rest/v1')) {
    throw new TypeError(
      `[@boundbook/msw] baseUrl must be an absolute http(s) URL ending in /rest/v1, such as https://api.boundbook.test/rest/v1; got ${JSON.stringify(baseUrl)}`,
    );
  }
  return {
    apiUrl: `${url.origin}${path}`,
    origin: url.origin,
    pathPrefix: path.slice(0, -'/rest/v1'.length),
  };
}
