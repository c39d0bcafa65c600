import { formatOrigin } from './control-client';
import { createDriftSurface, DRIFT_PREFIX } from './drift-surface';
import type { DriftProxy } from './drift-proxy/drift-proxy';
import { type DriftProxyOptions, readReceiver, readUpstream } from './drift-proxy/proxy-options';
import { refusalOf } from './request-guard';

// The drift proxy as the package offers it: the proxy (drift-proxy/) with the sandbox's guard
// of Host and origin and its own surface (the console's Drift page). The proxy and the contract
// it checks against are loaded only when one is started, so that importing the package (or
// starting the sandbox) costs nothing more.

/**
 * Starts a drift proxy in front of the service at `upstream`: point an integration at its
 * `apiUrl` instead of the service's, and it relays every request and answer unchanged while it
 * checks each against the contract, naming the choice each violation contradicts. With
 * `webhooksTo` it relays the service's webhook deliveries to that receiver and checks them too.
 * Only the proxy's own names may reach it (`allowedHosts` adds some), and its own calls
 * (`/_drift`) only its own origin. Rejects with a `DriftProxyError` for an upstream or receiver
 * that is not an http(s) URL.
 *
 * @example
 * ```ts
 * import { startDriftProxy } from '@fflkit/sandbox';
 *
 * const proxy = await startDriftProxy({ upstream: 'https://logbook.example.com/rest/v1' });
 * // ... run the integration against proxy.apiUrl, then:
 * for (const violation of proxy.report().violations) console.log(violation.message);
 * await proxy.stop();
 * ```
 */
export async function startDriftProxy(options: DriftProxyOptions): Promise<DriftProxy> {
  // Wrong options are told before anything loads.
  readUpstream(options.upstream);
  if (options.webhooksTo !== undefined) readReceiver(options.webhooksTo);
  const host = options.host ?? '127.0.0.1';
  const guard = { allowedHosts: options.allowedHosts, host, controlPrefix: DRIFT_PREFIX, subject: 'drift proxy' };
  const surface = createDriftSurface(options.consoleDir);
  const { serveDriftProxy } = await import('./drift-proxy/drift-proxy');
  return serveDriftProxy(options, {
    refusal: (path, headers) => refusalOf(path, headers, guard),
    surface,
    origin: formatOrigin,
  });
}
