import type { SandboxRequest } from '../sandbox-core-types';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the client used, for absolute links: `x-forwarded-proto` (`http` or `https`) or
 * `http`, and the `host` header when it is a well-formed host, else `localhost`, so every link
 * is a valid URL.
 *
 * @example
 * ```ts
 * requestOrigin({ host: '127.0.0.1:4010' }); // 'http://127.0.0.1:4010'
 * requestOrigin({ host: 'bad host' }); // 'http://localhost'
 * ```
 */
export function requestOrigin(headers: SandboxRequest['headers']): string {
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  const host = headers['host']?.trim() ?? '';
  return `${scheme}://${HOST.test(host) ? host : 'localhost'}`;
}
