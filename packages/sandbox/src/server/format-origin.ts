/**
 * The origin a client uses to reach a server listening on `host` and `port`: a wildcard address
 * becomes the loopback address of its family, and an IPv6 address is bracketed.
 */
export function formatOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
