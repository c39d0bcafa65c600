import type { DeliveryOutcome, DeliveryRequest } from './delivery-sender';

/**
 * The transport of a core made without `sendDelivery`: it sends nothing, and every attempt fails
 * with a reason that says how to give the core a transport. The core itself never touches the
 * network.
 *
 * @example
 * ```ts
 * await sendWithoutTransport(request); // { error: 'No transport: ...' }
 * ```
 */
export function sendWithoutTransport(_request: DeliveryRequest): Promise<DeliveryOutcome> {
  return Promise.resolve({
    error: 'No transport: the core was made without sendDelivery, so nothing was sent.',
  });
}
