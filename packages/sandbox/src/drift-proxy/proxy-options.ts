import type { Violation } from '../contract-check/violations';

// The options of the drift proxy and their reading: the service's base URL and the receiver,
// each an http(s) URL that names a server alone (the caller's own token is what authenticates).
// Kept apart from the proxy, which loads the contract, so that a wrong option is told at once.

/** Options of `startDriftProxy()`. */
export interface DriftProxyOptions {
  /** The service's base URL, such as `https://logbook.example.com/rest/v1`; an origin alone means its `/rest/v1`. */
  readonly upstream: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Interface to listen on; `127.0.0.1` by default. */
  readonly host?: string | undefined;
  /**
   * The receiver to relay webhook deliveries to (a POST to any path of the proxy outside
   * `/rest/v1` is a delivery); without it the proxy takes none. Named by its origin alone, it
   * gets the path each delivery came to.
   */
  readonly webhooksTo?: string | undefined;
  /** The endpoint's signing secret (`whsec_...`), to verify the deliveries' signatures with. */
  readonly secret?: string | undefined;
  /** Host names to answer to besides localhost, IP addresses and `host` (a tunnel's name, for deliveries). */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Whether to keep the books, receipts and endpoints seen, for `recorded()`. */
  readonly record?: boolean | undefined;
  /** Hears each distinct violation the first time it is seen. */
  readonly onViolation?: ((violation: Violation) => void) | undefined;
  /** Hears that the service or the receiver could not be reached. */
  readonly onUnreachable?: ((message: string) => void) | undefined;
  /** The built console's folder; by default the one beside the code. */
  readonly consoleDir?: string | undefined;
}

/** A wrong option of `startDriftProxy()`; its message says what to pass. */
export class DriftProxyError extends TypeError {
  override readonly name = 'DriftProxyError';
}

/** The path of the service API, on the proxy as on the sandbox and the service. */
export const API_PREFIX = '/rest/v1';

/** The service's base URL: http(s), nothing but a server and a path; `/rest/v1` when it names an origin alone. */
export function readUpstream(text: unknown): URL {
  const url = readServerUrl(text, 'upstream');
  if (url.search !== '') throw optionError('upstream', 'must be the base URL without a query');
  if (url.pathname === '/' || url.pathname === '') url.pathname = API_PREFIX;
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** The receiver's URL: http(s), nothing but a server, a path and a query. */
export function readReceiver(text: unknown): URL {
  return readServerUrl(text, 'webhooksTo');
}

function readServerUrl(text: unknown, option: string): URL {
  let url: URL | undefined;
  try {
    url = typeof text === 'string' ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw optionError(
      option,
      `must be an http or https URL, such as https://logbook.example.com/rest/v1, not ${JSON.stringify(text)}`,
    );
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw optionError(
      option,
      "must name the server without credentials or fragment: the caller's own token is what authenticates",
    );
  }
  return url;
}

function optionError(option: string, problem: string): DriftProxyError {
  return new DriftProxyError(`[@fflkit/sandbox] startDriftProxy(): ${option} ${problem}`);
}
